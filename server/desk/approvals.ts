import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { decidedBy } from "../../src/domain/staff.ts"
import { refuse } from "../../src/schema/envelope.ts"

/**
 * What four-eyes requests (`desk_approvals`: settling or voiding a market,
 * a large manual adjustment) share: how a decided one names itself, the
 * judgement of a locked one, and closing it.
 */
export type ApprovalStatus = "pending" | "approved" | "rejected" | "cancelled"

/** What a decided request says of itself: approved, declined, or withdrawn by the one who asked. */
const DONE: Readonly<Record<ApprovalStatus, string>> = { approved: "approved", rejected: "declined", cancelled: "withdrawn", pending: "pending" }

/** The locked request if it still waits; 404 when there is none, AlreadyDecided (naming who and when) when it was decided. */
export const judgeApproval = <R extends { readonly status: ApprovalStatus; readonly decidedBy: string | null; readonly decidedAt: Date | null }>(row: R | undefined, what: (row: R) => string) =>
  Effect.gen(function*() {
    if (!row) return yield* refuse("NotFound", "There is no such request.")
    if (row.status !== "pending") return yield* refuse("AlreadyDecided", decidedBy(what(row), DONE[row.status], row.decidedBy ?? "someone", row.decidedAt))
    return row
  })

/** Closes a request: approved or declined by another, or withdrawn (cancelled) by the one who asked. */
export const closeApproval = (sql: SqlClient.SqlClient, id: string, status: Exclude<ApprovalStatus, "pending">, by: string, remark: string | undefined) =>
  sql`UPDATE desk_approvals SET status = ${status}, decided_by = ${by}, decided_at = now(), remark = ${remark?.trim() || null} WHERE id = ${id}`

/** The columns every request's row has (beside its kind's own): who asked, and how it ended. */
export const DecisionColumns = {
  requestedById: Schema.String,
  requestedBy: Schema.String,
  requestedAt: Schema.Date,
  status: Schema.Literals(["pending", "approved", "rejected", "cancelled"]),
  decidedBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.Date),
  remark: Schema.NullOr(Schema.String)
}
type DecisionRow = Schema.Struct.Type<typeof DecisionColumns>

/** A request's who and how as the desk shows it to `viewer` (src/schema/desk/common.ts `DecisionFields`). */
export const decisionView = (viewer: string, row: DecisionRow) => ({
  requestedBy: row.requestedBy,
  requestedAt: row.requestedAt.toISOString(),
  status: row.status,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  remark: row.remark,
  mine: row.requestedById === viewer
})
