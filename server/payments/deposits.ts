import { Effect, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { MAX_DEPOSIT, MIN_DEPOSIT, PAYMENT_MESSAGES } from "../../src/domain/payments.ts"
import { depositApproved } from "../../src/domain/push.ts"
import { refuse } from "../../src/schema/envelope.ts"
import { AccountKind, type DepositPayload } from "../../src/schema/payments.ts"
import { Bonus } from "../bonus/Bonus.ts"
import { ServerConfig } from "../config.ts"
import { decodeRows } from "../db/rows.ts"
import { Signals } from "../integrity/Signals.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Admission } from "../protection/Admission.ts"
import { Push } from "../push/Push.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Referral } from "../referral/Referral.ts"
import { Uploads } from "../uploads/Uploads.ts"
import { depositReferences, isReferenceTaken } from "./references.ts"
import { amountPaise, DepositRow, depositView, type ListFilter } from "./shapes.ts"

/** Payments' deposits: a player's request, the operator's decision, the first deposit's offers; and operator credits. */
export const makeDeposits = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ledger = yield* Ledger
  const uploads = yield* Uploads
  const { limits } = yield* ServerConfig
  const bonus = yield* Bonus
  const referral = yield* Referral
  const admission = yield* Admission
  const references = depositReferences(sql, yield* Signals)
  const push = yield* Push
  const realtime = yield* Realtime

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
    if (paise < MIN_DEPOSIT * 100) return yield* refuse("InvalidInput", PAYMENT_MESSAGES.minDeposit)
    if (paise > MAX_DEPOSIT * 100) return yield* refuse("InvalidInput", PAYMENT_MESSAGES.maxDeposit)
    const image = input.baseImage ?? input.screenshot
    if (!input.txnRef?.trim() && !image) return yield* refuse("InvalidInput", PAYMENT_MESSAGES.referenceOrScreenshot)
    const txnRef = yield* references.admit(input.type, input.txnRef)
    const [account] = yield* sql`SELECT type FROM deposit_accounts WHERE id = ${input.accountId} AND active`.pipe(decodeRows(Schema.Struct({ type: AccountKind })))
    if (!account) return yield* refuse("NotFound", "This deposit account is no longer available. Please reload the page.")
    if (account.type !== input.type) return yield* refuse("InvalidInput", `This deposit account takes ${account.type === "upi" ? "UPI" : "bank"} payments.`)
    if (txnRef) yield* references.refuseUsed(txnRef)
    // One request at a time per player (the row stays locked until the write commits), so the quotas hold under races.
    yield* sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`
    const [pending] = yield* sql`
      SELECT count(*)::int AS waiting FROM deposit_requests WHERE user_id = ${userId} AND status = 'pending'
    `.pipe(decodeRows(Schema.Struct({ waiting: Schema.Number })))
    const waiting = pending?.waiting ?? 0
    if (waiting >= limits.pendingDepositsPerPlayer) {
      return yield* refuse("QuotaExceeded", `You already have ${waiting} deposit requests waiting for approval. Please wait until they are checked before sending another.`)
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
      Effect.catchIf((error) => error._tag === "SqlError" && isReferenceTaken(error), () => refuse("ReferenceUsed", PAYMENT_MESSAGES.referenceUsed))
    )
  })

  /** Locks the pending request and moves it on; a request already decided is a 409. */
  const decideDeposit = (id: string, operatorId: string, status: "approved" | "rejected", remark: string | undefined, ledgerTx: (row: DepositRow) => Effect.Effect<string | null, SqlError.SqlError>) =>
    sql.withTransaction(Effect.gen(function*() {
      const [row] = yield* sql`
        SELECT d.id, d.user_id, d.account_id, d.type, d.amount, d.txn_ref, d.screenshot_id, d.status, d.remark, d.created_at, d.decided_at
          FROM deposit_requests d WHERE d.id = ${id} FOR UPDATE
      `.pipe(decodeRows(DepositRow))
      if (!row) return yield* refuse("NotFound", "There is no such deposit request.")
      if (row.status !== "pending") return yield* refuse("Conflict", `This deposit request is already ${row.status}.`)
      const transactionId = yield* ledgerTx(row)
      const [updated] = yield* sql`
        UPDATE deposit_requests SET status = ${status}, remark = ${remark?.trim() || null}, decided_by = ${operatorId},
               decided_at = now(), ledger_transaction_id = ${transactionId}
         WHERE id = ${id} AND status = 'pending'
        RETURNING id, user_id, account_id, type, amount, txn_ref, screenshot_id, status, remark, created_at, decided_at
      `.pipe(decodeRows(DepositRow))
      if (!updated) return yield* refuse("Conflict", "This deposit request was decided by someone else just now.")
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
          yield* bonus.welcome(row.userId, amount)
          yield* referral.onDepositApproved(row.userId, row.id, amount)
        }
        return transactionId
      }))
  })

  const rejectDeposit = Effect.fn("Payments.rejectDeposit")(function*(id: string, operatorId: string, remark?: string) {
    return yield* decideDeposit(id, operatorId, "rejected", remark, () => Effect.succeed(null))
  })

  const credit = Effect.fn("Payments.credit")(function*(userId: string, paise: number, note: string, operatorId: string) {
    if (!Number.isSafeInteger(paise) || paise <= 0) return yield* refuse("InvalidInput", PAYMENT_MESSAGES.enterAmount)
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

  return {
    deposits,
    createDeposit,
    signalReusedReference: (userId: string, input: DepositPayload) => references.signalReuse(userId, input.type, input.txnRef ?? ""),
    approveDeposit,
    rejectDeposit,
    credit
  }
})
