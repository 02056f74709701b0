import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { adjustmentOf } from "../../src/domain/deskPlayers.ts"
import { formatRupees, toRupees } from "../../src/domain/money.ts"
import { needsSecondApprover } from "../../src/domain/staff.ts"
import { DEFAULT_PAGE } from "../../src/schema/desk/common.ts"
import type { AdjustmentApproval, AdjustmentPayload, AdjustmentQuery, AdjustmentResult } from "../../src/schema/desk/players.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Roles } from "../../src/schema/user.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { closeApproval, DecisionColumns, decisionView, judgeApproval } from "./approvals.ts"
import { type Actor, actorId, Audit } from "./Audit.ts"
import type { StaffActor } from "./Markets.ts"
import { Thresholds } from "./Thresholds.ts"

type Direction = AdjustmentPayload["direction"]

const PlayerRow = Schema.Struct({ id: Schema.String, role: Schema.Int, main: Paise })

const ApprovalRow = Schema.Struct({
  id: Schema.String,
  playerId: Schema.String,
  playerUsername: Schema.String,
  playerName: Schema.String,
  payload: Schema.Struct({ direction: Schema.Literals(["credit", "debit"]), reason: Schema.String }),
  amount: Paise,
  ...DecisionColumns
})
type ApprovalRow = typeof ApprovalRow.Type

const approvalView = (viewer: string) => (row: ApprovalRow): AdjustmentApproval => ({
  _id: row.id,
  player: { id: row.playerId, username: row.playerUsername, name: row.playerName },
  direction: row.payload.direction,
  amount: toRupees(row.amount),
  reason: row.payload.reason,
  ...decisionView(viewer, row)
})

/**
 * Manual adjustments (docs/backoffice.md): a credit or debit of a player's
 * main balance, one ledger transaction. Above the DIRECTOR's threshold the
 * adjustment waits in desk_approvals until a different ADMIN or DIRECTOR
 * approves it (the ledger transaction runs in the approval's transaction) or
 * declines it; the one who asked may withdraw it. Every step is audited in
 * its transaction and told to every open desk (`players`, `approvals`).
 */
export class Adjustments extends Context.Service<Adjustments, {
  adjust(actor: Actor, playerId: string, payload: AdjustmentPayload): Effect.Effect<AdjustmentResult, ApiError | SqlError.SqlError>
  pending(query: AdjustmentQuery, viewer: string): Effect.Effect<{ readonly items: ReadonlyArray<AdjustmentApproval>; readonly next: string | null; readonly total: number }, ApiError | SqlError.SqlError>
  approve(actor: StaffActor, approvalId: string, remark: string | undefined): Effect.Effect<AdjustmentResult, ApiError | SqlError.SqlError>
  decline(actor: StaffActor, approvalId: string, remark: string | undefined): Effect.Effect<AdjustmentResult, ApiError | SqlError.SqlError>
}>()("khel/Adjustments") {
  static readonly layer = Layer.effect(
    Adjustments,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* Audit
      const ledger = yield* Ledger
      const thresholds = yield* Thresholds
      const realtime = yield* Realtime

      /** The player, locked (an adjustment judges their balance), or 404. */
      const player = (id: string) =>
        Effect.gen(function*() {
          const [row] = yield* sql`
            SELECT u.id, u.role, coalesce(a.balance, 0) AS main
              FROM users u LEFT JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'main'
             WHERE u.id = ${id} AND u.role IN ${sql.in([Roles.PLAYER, Roles.CREDIT_PLAYER])}
               FOR UPDATE OF u
          `.pipe(decodeRows(PlayerRow))
          if (!row) return yield* refuse("NotFound", "There is no such player.")
          if (row.role !== Roles.PLAYER) return yield* refuse("Conflict", "Credit players' balances are their agent's: adjust their credit limit instead.")
          return row
        })

      const approvalSelect = sql`
        SELECT a.id, p.id AS player_id, p.username AS player_username, p.name AS player_name, a.payload, a.amount,
               a.requested_by AS requested_by_id, asker.username AS requested_by, a.requested_at, a.status,
               decider.username AS decided_by, a.decided_at, a.remark
          FROM desk_approvals a
          JOIN users p ON p.id = a.subject
          JOIN users asker ON asker.id = a.requested_by
          LEFT JOIN users decider ON decider.id = a.decided_by
      `
      const one = (id: string) => sql`${approvalSelect} WHERE a.id = ${id} AND a.kind = 'adjustment'`.pipe(decodeRows(ApprovalRow), Effect.map((rows) => rows[0]))

      const changed = (playerId: string, approvalId?: string) =>
        Effect.all([
          sql.afterCommit(realtime.notifyDesk("players", playerId)),
          ...(approvalId ? [sql.afterCommit(realtime.notifyDesk("approvals", approvalId))] : [])
        ])

      /** The one ledger transaction of an adjustment, audited as `player.credit` / `player.debit` by whoever made it happen. */
      const post = (actor: Actor, before: typeof PlayerRow.Type, direction: Direction, paise: number, reason: string) =>
        Effect.gen(function*() {
          const signed = direction === "credit" ? paise : -paise
          const transactionId = yield* ledger.post({
            kind: direction === "credit" ? "adjustment" : "adjustment_debit",
            userId: before.id,
            reference: `desk:${actorId(actor)}`,
            description: reason,
            legs: [
              { account: { operator: "house" }, amount: -signed },
              { account: { user: before.id, kind: "main" }, amount: signed }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", () => short(before.main)))
          const main = toRupees((yield* ledger.balances(before.id)).main)
          yield* audit.record(actor, {
            action: `player.${direction}`,
            subject: { kind: "player", id: before.id },
            before: { main: toRupees(before.main) },
            after: { transactionId, main, amount: toRupees(paise), reason }
          })
          return { transactionId, main }
        })

      const short = (main: Parameters<typeof toRupees>[0]) =>
        refuse("InsufficientBalance", `The player's main balance is ${formatRupees(toRupees(main))}: a debit cannot take it below zero.`)

      const adjust = Effect.fn("Adjustments.adjust")(function*(actor: Actor, playerId: string, payload: AdjustmentPayload) {
        const amount = adjustmentOf(payload.amount, payload.reason)
        if ("problem" in amount) return yield* refuse("InvalidInput", amount.problem)
        const reason = payload.reason.trim()
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* player(playerId)
          const limits = yield* thresholds.current
          if (!needsSecondApprover(amount.paise, limits.adjustmentPaise)) {
            const done = yield* post(actor, before, payload.direction, amount.paise, reason)
            yield* changed(playerId)
            return { ...done, approval: null }
          }
          if (actor.kind !== "staff") {
            return yield* refuse("SecondApproverNeeded", `An adjustment above ${formatRupees(toRupees(limits.adjustmentPaise))} needs a second approver on the desk.`)
          }
          // Refused now rather than at approval when the balance cannot cover the debit.
          if (payload.direction === "debit" && amount.paise > before.main) return yield* short(before.main)
          const [inserted] = yield* sql`
            INSERT INTO desk_approvals (kind, subject, payload, amount, requested_by)
            VALUES ('adjustment', ${playerId}, ${JSON.stringify({ direction: payload.direction, reason })}::jsonb, ${amount.paise}, ${actor.id})
            RETURNING id
          `.pipe(decodeRows(Schema.Struct({ id: Schema.String })))
          const view = approvalView(actor.id)((yield* one(inserted!.id))!)
          yield* audit.record(actor, { action: `player.${payload.direction}.request`, subject: { kind: "player", id: playerId }, after: view })
          yield* changed(playerId, view._id)
          return { transactionId: null, main: toRupees(before.main), approval: view }
        }))
      })

      const pending = Effect.fn("Adjustments.pending")(function*(query: AdjustmentQuery, viewer: string) {
        const offset = query.after === undefined ? 0 : /^\d{1,6}$/.test(query.after) ? Number(query.after) : undefined
        if (offset === undefined) return yield* refuse("InvalidInput", "That page does not exist: reload the list.")
        const limit = query.limit ?? DEFAULT_PAGE
        const where = sql`a.kind = 'adjustment' AND a.status = 'pending' ${query.player ? sql`AND a.subject = ${query.player}` : sql``}`
        const rows = yield* sql`${approvalSelect} WHERE ${where} ORDER BY a.requested_at, a.id LIMIT ${limit + 1} OFFSET ${offset}`.pipe(decodeRows(ApprovalRow))
        const [counted] = yield* sql`SELECT count(*)::int AS total FROM desk_approvals a WHERE ${where}`.pipe(decodeRows(Schema.Struct({ total: Schema.Int })))
        return { items: rows.slice(0, limit).map(approvalView(viewer)), next: rows.length > limit ? String(offset + limit) : null, total: counted?.total ?? 0 }
      })

      /** Locks a request, then reads it (a statement of its own after the lock, so it sees who decided meanwhile). */
      const locked = (approvalId: string) =>
        sql`SELECT id FROM desk_approvals WHERE id = ${approvalId} AND kind = 'adjustment' FOR UPDATE`.pipe(
          Effect.andThen(one(approvalId)),
          Effect.flatMap((row) => judgeApproval(row, (r) => `${r.payload.direction} of ${formatRupees(toRupees(r.amount))}`))
        )

      /** Closes the request and audits it (`player.credit.approve`, `.decline`, `.withdraw`) with the request before and after. */
      const close = (actor: StaffActor, row: ApprovalRow, status: "approved" | "rejected" | "cancelled", remark: string | undefined) =>
        Effect.gen(function*() {
          yield* closeApproval(sql, row.id, status, actor.id, remark)
          const view = approvalView(actor.id)((yield* one(row.id))!)
          const verb = status === "approved" ? "approve" : status === "rejected" ? "decline" : "withdraw"
          yield* audit.record(actor, { action: `player.${row.payload.direction}.${verb}`, subject: { kind: "player", id: row.playerId }, before: approvalView(actor.id)(row), after: view })
          yield* changed(row.playerId, row.id)
          return view
        })

      const approve = Effect.fn("Adjustments.approve")(function*(actor: StaffActor, approvalId: string, remark: string | undefined) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* locked(approvalId)
          if (row.requestedById === actor.id) return yield* refuse("OwnProposal", "You asked for this yourself: another staff member must approve it.")
          const done = yield* post(actor, yield* player(row.playerId), row.payload.direction, Number(row.amount), row.payload.reason)
          return { ...done, approval: yield* close(actor, row, "approved", remark) }
        }))
      })

      const decline = Effect.fn("Adjustments.decline")(function*(actor: StaffActor, approvalId: string, remark: string | undefined) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* locked(approvalId)
          // The one who asked may take it back (withdrawn); anyone else declines it.
          const approval = yield* close(actor, row, row.requestedById === actor.id ? "cancelled" : "rejected", remark)
          return { transactionId: null, main: toRupees((yield* ledger.balances(row.playerId)).main), approval }
        }))
      })

      return Adjustments.of({ adjust, pending, approve, decline })
    })
  )
}
