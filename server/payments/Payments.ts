import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import { MAX_DEPOSIT, MIN_DEPOSIT, MIN_WITHDRAWAL, PAYMENT_MESSAGES, validateAccount } from "../../src/domain/payments.ts"
import { depositApproved, withdrawalPaid } from "../../src/domain/push.ts"
import { cleanName } from "../../src/domain/text.ts"
import type { DepositAccountPayload } from "../../src/schema/admin.ts"
import { type ApiError, badRequest, conflict, notFound, tooMany, unprocessable } from "../../src/schema/envelope.ts"
import {
  type AccountDetailsPayload,
  AccountKind,
  BankAccountType,
  type DepositPayload,
  type DepositRequest,
  type PaymentAccount,
  RequestStatus,
  type UpdateAccountDetailsPayload,
  type WithdrawalPayload,
  type WithdrawalRequest
} from "../../src/schema/payments.ts"
import { Bonus, welcomeOffer } from "../bonus/Bonus.ts"
import { ServerConfig } from "../config.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Admission } from "../protection/Admission.ts"
import { Push } from "../push/Push.ts"
import { Signals } from "../integrity/Signals.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Referral } from "../referral/Referral.ts"
import { Uploads } from "../uploads/Uploads.ts"
import { upiQrDataUrl } from "./qr.ts"
import { payoutOwnership } from "./payoutAccounts.ts"
import { depositReferences, isReferenceTaken } from "./references.ts"

const AccountRow = Schema.Struct({
  id: Schema.String,
  type: AccountKind,
  accountNumber: Schema.String,
  accountHolderName: Schema.String,
  bankName: Schema.NullOr(Schema.String),
  ifscCode: Schema.NullOr(Schema.String),
  accountType: Schema.NullOr(BankAccountType),
  image: Schema.optional(Schema.NullOr(Schema.String)),
  active: Schema.optional(Schema.Boolean),
  /** A player's account: what makes it the same account whoever adds it (migration 0122). */
  payoutKey: Schema.optional(Schema.String)
})
type AccountRow = typeof AccountRow.Type

export const accountView = (row: AccountRow): PaymentAccount => ({
  _id: row.id,
  type: row.type,
  accountNumber: row.accountNumber,
  accountHolderName: row.accountHolderName,
  ...(row.bankName ? { bankName: row.bankName } : {}),
  ...(row.ifscCode ? { ifscCode: row.ifscCode } : {}),
  ...(row.accountType ? { accountType: row.accountType } : {}),
  ...(row.image ? { image: row.image } : {})
})

const DepositRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  accountId: Schema.String,
  type: AccountKind,
  amount: Paise,
  txnRef: Schema.NullOr(Schema.String),
  screenshotId: Schema.NullOr(Schema.String),
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  username: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
})
type DepositRow = typeof DepositRow.Type

const WithdrawalRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  accountId: Schema.String,
  // The payout account as it was when the request was made (jsonb).
  account: AccountRow,
  amount: Paise,
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  username: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
})
type WithdrawalRow = typeof WithdrawalRow.Type

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** Operators' lists say whose request it is; a player's own list does not need to. */
const owner = (row: { userId: string; username?: string; name?: string }, withOwner: boolean) =>
  withOwner && row.username !== undefined ? { user: { id: row.userId, username: row.username, name: row.name ?? "" } } : {}

export const depositView = (row: DepositRow, withOwner = false): DepositRequest => ({
  _id: row.id,
  amount: toRupees(row.amount),
  accountId: row.accountId,
  type: row.type,
  txnRef: row.txnRef,
  screenshot: row.screenshotId,
  status: row.status,
  remark: row.remark,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
  ...owner(row, withOwner)
})

export const withdrawalView = (row: WithdrawalRow, withOwner = false): WithdrawalRequest => ({
  _id: row.id,
  amount: toRupees(row.amount),
  accountId: row.accountId,
  account: accountView(row.account),
  status: row.status,
  remark: row.remark,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
  ...owner(row, withOwner)
})

export interface ListFilter {
  readonly from: Date
  readonly to: Date
  readonly status?: RequestStatus | undefined
  readonly userId?: string | undefined
}

/** The account fields as stored: trimmed, IFSC upper-case, bank fields only for banks. */
const normalizeAccount = (given: AccountDetailsPayload | DepositAccountPayload) => {
  // Names reach the operator's payout list: no bidirectional or other control characters in them.
  const input = { ...given, accountHolderName: cleanName(given.accountHolderName), ...(given.bankName !== undefined ? { bankName: cleanName(given.bankName) } : {}) }
  // Savings unless the player picked current (SPEC section 5).
  const problem = validateAccount(input.type === "bank" ? { ...input, accountType: input.accountType ?? "savings" } : input)
  if (problem) return badRequest(problem)
  const bank = input.type === "bank"
  return Effect.succeed({
    type: input.type,
    accountNumber: input.type === "upi" ? input.accountNumber.trim().toLowerCase() : input.accountNumber.trim(),
    accountHolderName: input.accountHolderName,
    bankName: bank ? input.bankName! : null,
    ifscCode: bank ? input.ifscCode!.trim().toUpperCase() : null,
    accountType: bank ? input.accountType ?? "savings" : null
  })
}

const amountPaise = (rupees: number) => {
  const paise = toPaise(rupees)
  if (paise === undefined || paise <= 0) return badRequest(PAYMENT_MESSAGES.enterAmount)
  return Effect.succeed(paise)
}

const isUniqueViolation = (error: SqlError.SqlError) => (error.reason as { cause?: { code?: string } }).cause?.code === "23505"

/**
 * Deposits, withdrawals and the accounts they use. Requests are rows; money
 * moves only through the ledger, in the same database transaction as the
 * request's change of status. A status change is a conditional update
 * (`WHERE status = 'pending'`), so of two approvals of one request, sent
 * twice or at once, exactly one moves money and the other gets 409.
 */
export class Payments extends Context.Service<Payments, {
  depositAccounts(options?: { includeInactive?: boolean }): Effect.Effect<ReadonlyArray<PaymentAccount & { active: boolean }>, SqlError.SqlError>
  addDepositAccount(input: DepositAccountPayload): Effect.Effect<PaymentAccount & { active: boolean }, ApiError | SqlError.SqlError>
  updateDepositAccount(id: string, input: DepositAccountPayload): Effect.Effect<PaymentAccount & { active: boolean }, ApiError | SqlError.SqlError>

  accounts(userId: string): Effect.Effect<ReadonlyArray<PaymentAccount>, SqlError.SqlError>
  addAccount(userId: string, input: AccountDetailsPayload): Effect.Effect<PaymentAccount, ApiError | SqlError.SqlError>
  updateAccount(userId: string, input: UpdateAccountDetailsPayload): Effect.Effect<PaymentAccount, ApiError | SqlError.SqlError>

  deposits(filter: ListFilter): Effect.Effect<ReadonlyArray<DepositRequest>, SqlError.SqlError>
  createDeposit(userId: string, input: DepositPayload): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>
  /** After a deposit was refused as `ReferenceUsed` (and its transaction rolled back): the integrity signal of who tried. */
  signalReusedReference(userId: string, input: DepositPayload): Effect.Effect<void, SqlError.SqlError>
  approveDeposit(id: string, operatorId: string, remark?: string): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>
  rejectDeposit(id: string, operatorId: string, remark?: string): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>

  withdrawals(filter: ListFilter): Effect.Effect<ReadonlyArray<WithdrawalRequest>, SqlError.SqlError>
  createWithdrawal(userId: string, input: WithdrawalPayload): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>
  approveWithdrawal(id: string, operatorId: string, remark?: string): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>
  rejectWithdrawal(id: string, operatorId: string, remark?: string): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>

  /** Credits a player's main balance from the operator (demos, goodwill); returns the ledger transaction. */
  credit(userId: string, amountPaise: number, note: string, operatorId: string): Effect.Effect<string, ApiError | SqlError.SqlError>
}>()("khel/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const uploads = yield* Uploads
      const { limits } = yield* ServerConfig
      const bonus = yield* Bonus
      const referral = yield* Referral
      const admission = yield* Admission
      const signals = yield* Signals
      const references = depositReferences(sql, signals)
      const payouts = payoutOwnership(sql, signals)
      const push = yield* Push
      const realtime = yield* Realtime

      // Operator deposit accounts -------------------------------------------------------------

      const depositAccountView = (row: AccountRow) => ({ ...accountView(row), active: row.active ?? true })

      const depositAccounts = Effect.fn("Payments.depositAccounts")(function*(options: { includeInactive?: boolean } = {}) {
        const rows = yield* sql`
          SELECT id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, image, active
            FROM deposit_accounts WHERE active OR ${options.includeInactive === true}
           ORDER BY type DESC, created_at
        `.pipe(decodeRows(AccountRow))
        return rows.map(depositAccountView)
      })

      const qrFor = (account: { type: AccountKind; accountNumber: string; accountHolderName: string }, image: string | undefined) =>
        image !== undefined || account.type !== "upi"
          ? Effect.succeed(image ?? null)
          : Effect.promise(() => upiQrDataUrl(account.accountNumber, account.accountHolderName))

      const addDepositAccount = Effect.fn("Payments.addDepositAccount")(function*(input: DepositAccountPayload) {
        const account = yield* normalizeAccount(input)
        const image = yield* qrFor(account, input.image)
        const rows = yield* sql`
          INSERT INTO deposit_accounts (type, account_number, account_holder_name, bank_name, ifsc_code, account_type, image, active)
          VALUES (${account.type}, ${account.accountNumber}, ${account.accountHolderName}, ${account.bankName}, ${account.ifscCode},
                  ${account.accountType}, ${image}, ${input.active ?? true})
          ON CONFLICT (type, account_number) DO NOTHING
          RETURNING id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, image, active
        `.pipe(decodeRows(AccountRow))
        if (!rows[0]) return yield* conflict("This deposit account already exists.")
        return depositAccountView(rows[0])
      })

      const updateDepositAccount = Effect.fn("Payments.updateDepositAccount")(function*(id: string, input: DepositAccountPayload) {
        const account = yield* normalizeAccount(input)
        const image = yield* qrFor(account, input.image)
        const rows = yield* sql`
          UPDATE deposit_accounts SET type = ${account.type}, account_number = ${account.accountNumber},
                 account_holder_name = ${account.accountHolderName}, bank_name = ${account.bankName}, ifsc_code = ${account.ifscCode},
                 account_type = ${account.accountType}, image = ${image}, active = ${input.active ?? true}
           WHERE id = ${id}
          RETURNING id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, image, active
        `.pipe(decodeRows(AccountRow), Effect.catchIf(isUniqueViolation, () => conflict("Another deposit account already has this number.")))
        if (!rows[0]) return yield* notFound("There is no such deposit account.")
        return depositAccountView(rows[0])
      })

      // Players' payout accounts ---------------------------------------------------------------

      const accounts = Effect.fn("Payments.accounts")(function*(userId: string) {
        const rows = yield* sql`
          SELECT id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type
            FROM payment_accounts WHERE user_id = ${userId} ORDER BY type DESC, created_at
        `.pipe(decodeRows(AccountRow))
        return rows.map(accountView)
      })

      // A payout account belongs to the first player who adds it (payoutAccounts.ts): another is refused, and signalled.
      const addAccount = Effect.fn("Payments.addAccount")(function*(userId: string, input: AccountDetailsPayload) {
        const account = yield* normalizeAccount(input)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql`
            INSERT INTO payment_accounts (user_id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type)
            VALUES (${userId}, ${account.type}, ${account.accountNumber}, ${account.accountHolderName}, ${account.bankName}, ${account.ifscCode}, ${account.accountType})
            ON CONFLICT (user_id, type, account_number) DO NOTHING
            RETURNING id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, payout_key
          `.pipe(decodeRows(AccountRow))
          if (!row) return yield* conflict(account.type === "upi" ? "You have already added this UPI id." : "You have already added this bank account.")
          yield* payouts.claim(userId, row.payoutKey!)
          return accountView(row)
        })).pipe(Effect.catchTag("PayoutAccountTaken", (taken) => payouts.refuse(userId, account.type, taken)))
      })

      const updateAccount = Effect.fn("Payments.updateAccount")(function*(userId: string, input: UpdateAccountDetailsPayload) {
        const account = yield* normalizeAccount(input)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [before] = yield* sql`SELECT payout_key FROM payment_accounts WHERE id = ${input.accountId} AND user_id = ${userId} FOR UPDATE`.pipe(
            decodeRows(Schema.Struct({ payoutKey: Schema.String }))
          )
          if (!before) return yield* notFound("There is no such account.")
          const [row] = yield* sql`
            UPDATE payment_accounts SET type = ${account.type}, account_number = ${account.accountNumber},
                   account_holder_name = ${account.accountHolderName}, bank_name = ${account.bankName}, ifsc_code = ${account.ifscCode},
                   account_type = ${account.accountType}, updated_at = now()
             WHERE id = ${input.accountId} AND user_id = ${userId}
            RETURNING id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, payout_key
          `.pipe(decodeRows(AccountRow), Effect.catchIf(isUniqueViolation, () => conflict("You already have another account with this number.")))
          if (row!.payoutKey !== before.payoutKey) {
            yield* payouts.claim(userId, row!.payoutKey!)
            yield* payouts.release(userId, before.payoutKey)
          }
          return accountView(row!)
        })).pipe(Effect.catchTag("PayoutAccountTaken", (taken) => payouts.refuse(userId, account.type, taken)))
      })

      // Deposits -----------------------------------------------------------------------------

      const deposits = Effect.fn("Payments.deposits")(function*(filter: ListFilter) {
        const rows = yield* sql`
          SELECT d.id, d.user_id, d.account_id, d.type, d.amount, d.txn_ref, d.screenshot_id, d.status, d.remark, d.created_at, d.decided_at, u.username, u.name
            FROM deposit_requests d JOIN users u ON u.id = d.user_id
           WHERE d.created_at >= ${filter.from} AND d.created_at <= ${filter.to}
             AND (${filter.userId ?? null}::text IS NULL OR d.user_id = ${filter.userId ?? null})
             AND (${filter.status ?? null}::text IS NULL OR d.status = ${filter.status ?? null})
           ORDER BY d.created_at DESC
           LIMIT 1000
        `.pipe(decodeRows(DepositRow))
        return rows.map((row) => depositView(row, filter.userId === undefined))
      })

      const createDeposit = Effect.fn("Payments.createDeposit")(function*(userId: string, input: DepositPayload) {
        const paise = yield* amountPaise(input.amount)
        if (paise < MIN_DEPOSIT * 100) return yield* badRequest(PAYMENT_MESSAGES.minDeposit)
        if (paise > MAX_DEPOSIT * 100) return yield* badRequest(PAYMENT_MESSAGES.maxDeposit)
        const image = input.baseImage ?? input.screenshot
        if (!input.txnRef?.trim() && !image) return yield* badRequest(PAYMENT_MESSAGES.referenceOrScreenshot)
        const txnRef = yield* references.admit(input.type, input.txnRef)
        const [account] = yield* sql`SELECT type FROM deposit_accounts WHERE id = ${input.accountId} AND active`.pipe(decodeRows(Schema.Struct({ type: AccountKind })))
        if (!account) return yield* notFound("This deposit account is no longer available. Please reload the page.")
        if (account.type !== input.type) return yield* badRequest(`This deposit account takes ${account.type === "upi" ? "UPI" : "bank"} payments.`)
        if (txnRef) yield* references.refuseUsed(txnRef)
        // One request at a time per player (the row stays locked until the write commits), so the quotas hold under races.
        yield* sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`
        const [pending] = yield* sql`
          SELECT count(*)::int AS waiting FROM deposit_requests WHERE user_id = ${userId} AND status = 'pending'
        `.pipe(decodeRows(Schema.Struct({ waiting: Schema.Number })))
        const waiting = pending?.waiting ?? 0
        if (waiting >= limits.pendingDepositsPerPlayer) {
          return yield* tooMany(
            `You already have ${waiting} deposit requests waiting for approval. Please wait until they are checked before sending another.`,
            "QuotaExceeded"
          )
        }
        // A deposit the player's protection refuses stores nothing, not even its screenshot.
        yield* admission.checkDeposit(userId, paise)
        const screenshotId = image ? yield* uploads.store(userId, image) : null
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql`
            INSERT INTO deposit_requests (user_id, account_id, type, amount, txn_ref, screenshot_id)
            VALUES (${userId}, ${input.accountId}, ${input.type}, ${paise}, ${txnRef}, ${screenshotId})
            RETURNING id, user_id, account_id, type, amount, txn_ref, screenshot_id, status, remark, created_at, decided_at
          `.pipe(decodeRows(DepositRow))
          // Checked again under the player's lock, and counted towards their deposit limits.
          yield* admission.admitDeposit(userId, row!.id, paise)
          if (txnRef) yield* references.flagNear(userId, row!.id, txnRef)
          // The desk's queue shows it without a reload.
          yield* sql.afterCommit(realtime.notifyDesk("deposits", row!.id))
          return depositView(row!)
        })).pipe(
          // Another deposit took the reference since it was checked: refused like a reference used before.
          Effect.catchIf((error) => error._tag === "SqlError" && isReferenceTaken(error), () => conflict(PAYMENT_MESSAGES.referenceUsed, "ReferenceUsed"))
        )
      })

      /** Locks the pending request and moves it on; a request already decided is a 409. */
      const decideDeposit = (id: string, operatorId: string, status: "approved" | "rejected", remark: string | undefined, ledgerTx: (row: DepositRow) => Effect.Effect<string | null, SqlError.SqlError>) =>
        sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql`
            SELECT d.id, d.user_id, d.account_id, d.type, d.amount, d.txn_ref, d.screenshot_id, d.status, d.remark, d.created_at, d.decided_at
              FROM deposit_requests d WHERE d.id = ${id} FOR UPDATE
          `.pipe(decodeRows(DepositRow))
          if (!row) return yield* notFound("There is no such deposit request.")
          if (row.status !== "pending") return yield* conflict(`This deposit request is already ${row.status}.`)
          const transactionId = yield* ledgerTx(row)
          const [updated] = yield* sql`
            UPDATE deposit_requests SET status = ${status}, remark = ${remark?.trim() || null}, decided_by = ${operatorId},
                   decided_at = now(), ledger_transaction_id = ${transactionId}
             WHERE id = ${id} AND status = 'pending'
            RETURNING id, user_id, account_id, type, amount, txn_ref, screenshot_id, status, remark, created_at, decided_at
          `.pipe(decodeRows(DepositRow))
          if (!updated) return yield* conflict("This deposit request was decided by someone else just now.")
          // The player hears of it on their phone once the money is theirs (Web Push, after commit).
          if (status === "approved") yield* sql.afterCommit(push.notify(updated.userId, depositApproved({ id: updated.id, rupees: toRupees(updated.amount) })))
          return depositView(updated)
        }))

      const approveDeposit = Effect.fn("Payments.approveDeposit")(function*(id: string, operatorId: string, remark?: string) {
        return yield* decideDeposit(id, operatorId, "approved", remark, (row) =>
          Effect.gen(function*() {
            const amount = Number(row.amount)
            const [first] = yield* sql`SELECT count(*)::int AS n FROM deposit_requests WHERE user_id = ${row.userId} AND status = 'approved'`.pipe(decodeRows(Schema.Struct({ n: Schema.Number })))
            const transactionId = yield* ledger.post({
              kind: "deposit",
              userId: row.userId,
              reference: `deposit:${row.id}`,
              description: `Deposit by ${row.type === "upi" ? "UPI" : "bank transfer"}${row.txnRef ? ` (ref ${row.txnRef})` : ""}`,
              legs: [
                { account: { operator: "deposits" }, amount: -amount },
                { account: { user: row.userId, kind: "main" }, amount }
              ]
            }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
            if (first!.n === 0) {
              // A player's first deposit: the welcome offer, and their referrer's reward.
              yield* bonus.offer(row.userId, welcomeOffer(amount))
              yield* referral.onDepositApproved(row.userId, row.id, amount)
            }
            return transactionId
          }))
      })

      const rejectDeposit = Effect.fn("Payments.rejectDeposit")(function*(id: string, operatorId: string, remark?: string) {
        return yield* decideDeposit(id, operatorId, "rejected", remark, () => Effect.succeed(null))
      })

      // Withdrawals ---------------------------------------------------------------------------

      const withdrawals = Effect.fn("Payments.withdrawals")(function*(filter: ListFilter) {
        const rows = yield* sql`
          SELECT w.id, w.user_id, w.account_id, w.account, w.amount, w.status, w.remark, w.created_at, w.decided_at, u.username, u.name
            FROM withdrawal_requests w JOIN users u ON u.id = w.user_id
           WHERE w.created_at >= ${filter.from} AND w.created_at <= ${filter.to}
             AND (${filter.userId ?? null}::text IS NULL OR w.user_id = ${filter.userId ?? null})
             AND (${filter.status ?? null}::text IS NULL OR w.status = ${filter.status ?? null})
           ORDER BY w.created_at DESC
           LIMIT 1000
        `.pipe(decodeRows(WithdrawalRow))
        return rows.map((row) => withdrawalView(row, filter.userId === undefined))
      })

      const createWithdrawal = Effect.fn("Payments.createWithdrawal")(function*(userId: string, input: WithdrawalPayload) {
        const paise = yield* amountPaise(input.amount)
        if (paise < MIN_WITHDRAWAL * 100) return yield* badRequest(PAYMENT_MESSAGES.minWithdrawal)
        const [found] = yield* sql`
          SELECT id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, payout_key
            FROM payment_accounts WHERE id = ${input.accountId} AND user_id = ${userId}
        `.pipe(decodeRows(AccountRow))
        if (!found) return yield* notFound("There is no such account. Add it on the withdrawal page first.")
        // Accounts added before one player owned each: only the owner withdraws to it.
        if (!(yield* payouts.owns(userId, found.payoutKey!))) {
          return yield* conflict("This payout account is registered to another player. Please withdraw to an account in your own name.")
        }
        const { payoutKey: _key, ...account } = found
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql`
            INSERT INTO withdrawal_requests (user_id, account_id, account, amount)
            VALUES (${userId}, ${account.id}, ${JSON.stringify(account)}::jsonb, ${paise})
            RETURNING id, user_id, account_id, account, amount, status, remark, created_at, decided_at
          `.pipe(decodeRows(WithdrawalRow))
          // The amount leaves the available balance at once; the database refuses an overdraft.
          yield* ledger.post({
            kind: "withdrawal_hold",
            userId,
            reference: `withdrawal:${row!.id}`,
            description: `Withdrawal requested to ${account.type === "upi" ? account.accountNumber : `${account.bankName} ${account.accountNumber.slice(-4)}`}`,
            legs: [
              { account: { user: userId, kind: "main" }, amount: -paise },
              { account: { user: userId, kind: "withdrawal_hold" }, amount: paise }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", () => unprocessable(PAYMENT_MESSAGES.insufficient, "InsufficientBalance")))
          yield* sql.afterCommit(realtime.notifyDesk("withdrawals", row!.id))
          return withdrawalView(row!)
        }))
      })

      const decideWithdrawal = (id: string, operatorId: string, status: "approved" | "rejected", remark: string | undefined) =>
        sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql`
            UPDATE withdrawal_requests SET status = ${status}, remark = ${remark?.trim() || null}, decided_by = ${operatorId}, decided_at = now()
             WHERE id = ${id} AND status = 'pending'
            RETURNING id, user_id, account_id, account, amount, status, remark, created_at, decided_at
          `.pipe(decodeRows(WithdrawalRow))
          if (!row) {
            const [existing] = yield* sql`SELECT status FROM withdrawal_requests WHERE id = ${id}`.pipe(decodeRows(Schema.Struct({ status: RequestStatus })))
            return yield* existing ? conflict(`This withdrawal request is already ${existing.status}.`) : notFound("There is no such withdrawal request.")
          }
          const amount = Number(row.amount)
          yield* ledger.post(status === "approved"
            ? {
              kind: "withdrawal_paid",
              userId: row.userId,
              reference: `withdrawal:${row.id}`,
              description: "Withdrawal paid",
              legs: [
                { account: { user: row.userId, kind: "withdrawal_hold" }, amount: -amount },
                { account: { operator: "withdrawals" }, amount }
              ]
            }
            : {
              kind: "withdrawal_rejected",
              userId: row.userId,
              reference: `withdrawal:${row.id}`,
              description: `Withdrawal rejected${remark?.trim() ? `: ${remark.trim()}` : ""}; amount returned`,
              legs: [
                { account: { user: row.userId, kind: "withdrawal_hold" }, amount: -amount },
                { account: { user: row.userId, kind: "main" }, amount }
              ]
            }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
          if (status === "approved") yield* sql.afterCommit(push.notify(row.userId, withdrawalPaid({ id: row.id, rupees: toRupees(row.amount) })))
          return withdrawalView(row)
        }))

      const approveWithdrawal = Effect.fn("Payments.approveWithdrawal")((id: string, operatorId: string, remark?: string) =>
        decideWithdrawal(id, operatorId, "approved", remark)
      )
      const rejectWithdrawal = Effect.fn("Payments.rejectWithdrawal")((id: string, operatorId: string, remark?: string) =>
        decideWithdrawal(id, operatorId, "rejected", remark)
      )

      const credit = Effect.fn("Payments.credit")(function*(userId: string, paise: number, note: string, operatorId: string) {
        if (!Number.isSafeInteger(paise) || paise <= 0) return yield* badRequest(PAYMENT_MESSAGES.enterAmount)
        return yield* ledger.post({
          kind: "adjustment",
          userId,
          reference: `operator:${operatorId}`,
          description: note.trim() || "Credit from Khel",
          legs: [
            { account: { operator: "house" }, amount: -paise },
            { account: { user: userId, kind: "main" }, amount: paise }
          ]
        }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
      })

      return Payments.of({
        depositAccounts,
        addDepositAccount,
        updateDepositAccount,
        accounts,
        addAccount,
        updateAccount,
        deposits,
        createDeposit,
        signalReusedReference: (userId, input) => references.signalReuse(userId, input.type, input.txnRef ?? ""),
        approveDeposit,
        rejectDeposit,
        withdrawals,
        createWithdrawal,
        approveWithdrawal,
        rejectWithdrawal,
        credit
      })
    })
  )
}
