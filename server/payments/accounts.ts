import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { DepositAccountPayload } from "../../src/schema/admin.ts"
import { refuse } from "../../src/schema/envelope.ts"
import type { AccountDetailsPayload, AccountKind, UpdateAccountDetailsPayload } from "../../src/schema/payments.ts"
import { decodeRows } from "../db/rows.ts"
import { Signals } from "../integrity/Signals.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { payoutOwnership } from "./payoutAccounts.ts"
import { upiQrDataUrl } from "./qr.ts"
import { AccountRow, accountView, isUniqueViolation, normalizeAccount } from "./shapes.ts"

/** Payments' accounts: the operator's deposit accounts and the players' payout accounts. */
export const makeAccounts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const payouts = payoutOwnership(sql, yield* Signals)
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

  // Every open desk's settings screen reads the accounts again, whoever changed them (the desk, the API or the CLI).
  const accountsChanged = sql.afterCommit(realtime.notifyDesk("settings", "deposit-accounts"))

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
    if (!rows[0]) return yield* refuse("Conflict", "This deposit account already exists.")
    yield* accountsChanged
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
    `.pipe(decodeRows(AccountRow), Effect.catchIf(isUniqueViolation, () => refuse("Conflict", "Another deposit account already has this number.")))
    if (!rows[0]) return yield* refuse("NotFound", "There is no such deposit account.")
    yield* accountsChanged
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
      if (!row) return yield* refuse("Conflict", account.type === "upi" ? "You have already added this UPI id." : "You have already added this bank account.")
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
      if (!before) return yield* refuse("NotFound", "There is no such account.")
      const [row] = yield* sql`
        UPDATE payment_accounts SET type = ${account.type}, account_number = ${account.accountNumber},
               account_holder_name = ${account.accountHolderName}, bank_name = ${account.bankName}, ifsc_code = ${account.ifscCode},
               account_type = ${account.accountType}, updated_at = now()
         WHERE id = ${input.accountId} AND user_id = ${userId}
        RETURNING id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, payout_key
      `.pipe(decodeRows(AccountRow), Effect.catchIf(isUniqueViolation, () => refuse("Conflict", "You already have another account with this number.")))
      if (row!.payoutKey !== before.payoutKey) {
        yield* payouts.claim(userId, row!.payoutKey!)
        yield* payouts.release(userId, before.payoutKey)
      }
      return accountView(row!)
    })).pipe(Effect.catchTag("PayoutAccountTaken", (taken) => payouts.refuse(userId, account.type, taken)))
  })

  return { depositAccounts, addDepositAccount, updateDepositAccount, accounts, addAccount, updateAccount }
})
