import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { MIN_WITHDRAWAL, PAYMENT_MESSAGES } from "../../src/domain/payments.ts"
import { withdrawalPaid } from "../../src/domain/push.ts"
import { refuse } from "../../src/schema/envelope.ts"
import { RequestStatus, type WithdrawalPayload } from "../../src/schema/payments.ts"
import { decodeRows } from "../db/rows.ts"
import { Signals } from "../integrity/Signals.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Push } from "../push/Push.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { payoutOwnership } from "./payoutAccounts.ts"
import { AccountRow, amountPaise, type ListFilter, WithdrawalRow, withdrawalView } from "./shapes.ts"

/** Payments' withdrawals: the amount held at the request, paid out or returned at the operator's decision. */
export const makeWithdrawals = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const ledger = yield* Ledger
  const payouts = payoutOwnership(sql, yield* Signals)
  const push = yield* Push
  const realtime = yield* Realtime

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
    if (paise < MIN_WITHDRAWAL * 100) return yield* refuse("InvalidInput", PAYMENT_MESSAGES.minWithdrawal)
    const [found] = yield* sql`
      SELECT id, type, account_number, account_holder_name, bank_name, ifsc_code, account_type, payout_key
        FROM payment_accounts WHERE id = ${input.accountId} AND user_id = ${userId}
    `.pipe(decodeRows(AccountRow))
    if (!found) return yield* refuse("NotFound", "There is no such account. Add it on the withdrawal page first.")
    // Accounts added before one player owned each: only the owner withdraws to it.
    if (!(yield* payouts.owns(userId, found.payoutKey!))) {
      return yield* refuse("Conflict", "This payout account is registered to another player. Please withdraw to an account in your own name.")
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
      }).pipe(Effect.catchTag("InsufficientFunds", () => refuse("InsufficientBalance", PAYMENT_MESSAGES.insufficient)))
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
        return yield* existing ? refuse("Conflict", `This withdrawal request is already ${existing.status}.`) : refuse("NotFound", "There is no such withdrawal request.")
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

  return { withdrawals, createWithdrawal, approveWithdrawal, rejectWithdrawal }
})
