import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import { parseInstant } from "../../src/domain/ranges.ts"
import { CLAIM_MINUTES } from "../../src/domain/staff.ts"
import type { AuditEntry } from "../../src/schema/desk/audit.ts"
import { DEFAULT_PAGE } from "../../src/schema/desk/common.ts"
import type { DepositDetail, DeskDeposit, DeskWithdrawal, QueueQuery, WithdrawalDetail } from "../../src/schema/desk/queues.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { AccountKind, RequestStatus } from "../../src/schema/payments.ts"
import { decodeRows, iso, Paise } from "../db/rows.ts"
import { AccountRow, accountView } from "../payments/shapes.ts"
import { Audit } from "./Audit.ts"

export interface Viewer {
  readonly id: string
}

interface Paged<A> {
  readonly items: ReadonlyArray<A>
  readonly next: string | null
  readonly total: number
}

/** Who, claimed and decided, as every desk row of a request carries them. */
const Common = {
  id: Schema.String,
  amount: Paise,
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  decidedBy: Schema.NullOr(Schema.String),
  claimedBy: Schema.NullOr(Schema.String),
  claimedByName: Schema.NullOr(Schema.String),
  claimedAt: Schema.NullOr(Schema.Date),
  userId: Schema.String,
  username: Schema.String,
  name: Schema.String,
  mobileNo: Schema.String
}

const DepositRow = Schema.Struct({
  ...Common,
  type: AccountKind,
  txnRef: Schema.NullOr(Schema.String),
  screenshotId: Schema.NullOr(Schema.String),
  accountType: AccountKind,
  accountNumber: Schema.String,
  accountHolderName: Schema.String,
  sameReference: Schema.Int
})
type DepositRow = typeof DepositRow.Type

const WithdrawalRow = Schema.Struct({
  ...Common,
  payoutReference: Schema.NullOr(Schema.String),
  account: AccountRow
})
type WithdrawalRow = typeof WithdrawalRow.Type


const common = (row: DepositRow | WithdrawalRow, viewer: Viewer) => ({
  _id: row.id,
  amount: toRupees(row.amount),
  status: row.status,
  remark: row.remark,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
  decidedBy: row.decidedBy,
  // A claim is about working a request: once it is decided, nobody works it.
  claim: row.status === "pending" && row.claimedByName !== null && row.claimedAt !== null ? { by: row.claimedByName, at: row.claimedAt.toISOString(), mine: row.claimedBy === viewer.id } : null,
  player: { id: row.userId, username: row.username, name: row.name, mobileNo: row.mobileNo }
})

const depositView = (viewer: Viewer) => (row: DepositRow): DeskDeposit => ({
  ...common(row, viewer),
  type: row.type,
  txnRef: row.txnRef,
  screenshot: row.screenshotId,
  paidTo: { type: row.accountType, accountNumber: row.accountNumber, accountHolderName: row.accountHolderName },
  sameReference: row.sameReference
})

const withdrawalView = (viewer: Viewer) => (row: WithdrawalRow): DeskWithdrawal => ({
  ...common(row, viewer),
  payoutReference: row.payoutReference,
  account: accountView(row.account)
})

/** A page's cursor: its last row's id; the next page starts after that row in the queue's order (exactly: by its stored time). */
const cursorOf = (row: { readonly id: string }) => row.id

const readCursor = (after: string | undefined) =>
  after === undefined ? Effect.succeed(undefined) : /^[\w-]{1,64}$/.test(after) ? Effect.succeed(after) : refuse("InvalidInput", "That page does not exist: reload the queue.")

const CLAIM_LIVE = `${CLAIM_MINUTES} minutes`

/** The same reference: spaces and case ignored (the index of migration 0130). */
const normalizedRef = (column: string) => `upper(regexp_replace(${column}, '\\s', '', 'g'))`

/**
 * The deposit and withdrawal queues as the desk reads them: paged on the
 * server by a cursor on the queue's order (pending oldest first, the others
 * newest first), each request with its player, its claim and what the desk
 * weighs it by (a reference used before; deposits and wagers since the last
 * withdrawal). Reads only: decisions and claims are Decisions'.
 */
export class Queues extends Context.Service<Queues, {
  deposits(query: QueueQuery, viewer: Viewer): Effect.Effect<Paged<DeskDeposit>, ApiError | SqlError.SqlError>
  deposit(id: string, viewer: Viewer): Effect.Effect<DepositDetail, ApiError | SqlError.SqlError>
  withdrawals(query: QueueQuery, viewer: Viewer): Effect.Effect<Paged<DeskWithdrawal>, ApiError | SqlError.SqlError>
  withdrawal(id: string, viewer: Viewer): Effect.Effect<WithdrawalDetail, ApiError | SqlError.SqlError>
}>()("khel/Queues") {
  static readonly layer = Layer.effect(
    Queues,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* Audit

      const depositSelect = sql`
        SELECT d.id, d.amount, d.status, d.remark, d.created_at, d.decided_at, coalesce(decider.username, d.decided_by) AS decided_by,
               d.claimed_by, CASE WHEN d.claimed_at > now() - ${CLAIM_LIVE}::interval THEN claimer.username END AS claimed_by_name,
               CASE WHEN d.claimed_at > now() - ${CLAIM_LIVE}::interval THEN d.claimed_at END AS claimed_at,
               u.id AS user_id, u.username, u.name, u.mobile_no,
               d.type, d.txn_ref, d.screenshot_id, a.type AS account_type, a.account_number, a.account_holder_name,
               CASE WHEN d.txn_ref IS NULL THEN 0 ELSE (
                 SELECT count(*) FROM deposit_requests o
                  WHERE ${sql.literal(normalizedRef("o.txn_ref"))} = ${sql.literal(normalizedRef("d.txn_ref"))} AND o.id <> d.id
               ) END::int AS same_reference
          FROM deposit_requests d
          JOIN users u ON u.id = d.user_id
          JOIN deposit_accounts a ON a.id = d.account_id
          LEFT JOIN users claimer ON claimer.id = d.claimed_by
          LEFT JOIN users decider ON decider.id = d.decided_by
      `

      const withdrawalSelect = sql`
        SELECT w.id, w.amount, w.status, w.remark, w.created_at, w.decided_at, coalesce(decider.username, w.decided_by) AS decided_by,
               w.claimed_by, CASE WHEN w.claimed_at > now() - ${CLAIM_LIVE}::interval THEN claimer.username END AS claimed_by_name,
               CASE WHEN w.claimed_at > now() - ${CLAIM_LIVE}::interval THEN w.claimed_at END AS claimed_at,
               u.id AS user_id, u.username, u.name, u.mobile_no, w.payout_reference, w.account
          FROM withdrawal_requests w
          JOIN users u ON u.id = w.user_id
          LEFT JOIN users claimer ON claimer.id = w.claimed_by
          LEFT JOIN users decider ON decider.id = w.decided_by
      `

      /** The filters of a queue query as clauses on `alias` (only those given, so the planner sees a plain query). */
      const filters = (alias: "d" | "w", query: QueueQuery) =>
        Effect.gen(function*() {
          const clauses: Array<Statement.Fragment> = []
          const column = (name: string) => sql.literal(`${alias}.${name}`)
          const status = query.status ?? "pending"
          if (status !== "all") clauses.push(sql`${column("status")} = ${status}`)
          if (query.start_date) {
            const from = parseInstant(query.start_date)
            if (!from) return yield* refuse("InvalidInput", "Dates are YYYY-MM-DD (India time).")
            clauses.push(sql`${column("created_at")} >= ${from}`)
          }
          if (query.end_date) {
            const to = parseInstant(query.end_date, true)
            if (!to) return yield* refuse("InvalidInput", "Dates are YYYY-MM-DD (India time).")
            clauses.push(sql`${column("created_at")} <= ${to}`)
          }
          const player = query.player?.trim()
          if (player) {
            const digits = player.replace(/\D/g, "")
            clauses.push(sql`(u.id = ${player} OR u.username = ${player.toLowerCase()} OR lower(u.name) LIKE ${`${player.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`}
              OR (${digits.length >= 6} AND u.mobile_no LIKE ${`%${digits}`}))`)
          }
          for (const [bound, op] of [[query.min, ">="], [query.max, "<="]] as const) {
            if (bound === undefined) continue
            const paise = toPaise(bound)
            if (paise === undefined) return yield* refuse("InvalidInput", "Amounts are rupees with at most two decimals.")
            clauses.push(sql`${column("amount")} ${sql.literal(op)} ${paise}`)
          }
          return { clauses, ascending: status === "pending" }
        })

      const page = <Row extends { readonly id: string }, A>(
        alias: "d" | "w",
        select: Statement.Fragment,
        table: string,
        row: Schema.Decoder<Row>,
        view: (row: Row) => A
      ) =>
        Effect.fn(`Queues.${table}`)(function*(query: QueueQuery) {
          const { clauses, ascending } = yield* filters(alias, query)
          const after = yield* readCursor(query.after)
          if (after !== undefined && (yield* sql`SELECT 1 FROM ${sql(table)} WHERE id = ${after}`).length === 0) {
            return yield* refuse("InvalidInput", "That page does not exist: reload the queue.")
          }
          const limit = query.limit ?? DEFAULT_PAGE
          const keyset = after
            ? [sql`(${sql.literal(alias)}.created_at, ${sql.literal(alias)}.id) ${sql.literal(ascending ? ">" : "<")} (SELECT created_at, id FROM ${sql(table)} WHERE id = ${after})`]
            : []
          const order = sql.literal(ascending ? `${alias}.created_at ASC, ${alias}.id ASC` : `${alias}.created_at DESC, ${alias}.id DESC`)
          const rows = yield* sql`${select} WHERE ${sql.and([...clauses, ...keyset])} ORDER BY ${order} LIMIT ${limit + 1}`.pipe(decodeRows(row))
          const [counted] = yield* sql`
            SELECT count(*)::int AS total FROM ${sql(table)} ${sql.literal(alias)} JOIN users u ON u.id = ${sql.literal(alias)}.user_id WHERE ${sql.and(clauses)}
          `.pipe(decodeRows(Schema.Struct({ total: Schema.Int })))
          const shown = rows.slice(0, limit)
          return { items: shown.map(view), next: rows.length > limit ? cursorOf(shown[shown.length - 1]!) : null, total: counted?.total ?? 0 }
        })

      const deposits = (query: QueueQuery, viewer: Viewer) => page("d", depositSelect, "deposit_requests", DepositRow, depositView(viewer))(query)
      const withdrawals = (query: QueueQuery, viewer: Viewer) => page("w", withdrawalSelect, "withdrawal_requests", WithdrawalRow, withdrawalView(viewer))(query)

      /** What the desk did to a request: claims, decisions, oldest first. */
      const history = (kind: string, id: string): Effect.Effect<ReadonlyArray<AuditEntry>, ApiError | SqlError.SqlError> =>
        Effect.map(audit.search({ subject: id, limit: 200 }), (found) => found.items.filter((entry) => entry.subjectKind === kind).reverse())

      const deposit = Effect.fn("Queues.deposit")(function*(id: string, viewer: Viewer) {
        const [row] = yield* sql`${depositSelect} WHERE d.id = ${id}`.pipe(decodeRows(DepositRow))
        if (!row) return yield* refuse("NotFound", "There is no such deposit request.")
        const view = depositView(viewer)
        const recent = yield* sql`${depositSelect} WHERE d.user_id = ${row.userId} AND d.id <> ${id} ORDER BY d.created_at DESC LIMIT 5`.pipe(decodeRows(DepositRow))
        const same = row.txnRef === null ? [] : yield* sql`
          ${depositSelect} WHERE ${sql.literal(normalizedRef("d.txn_ref"))} = upper(regexp_replace(${row.txnRef}, '\\s', '', 'g')) AND d.id <> ${id}
           ORDER BY d.created_at LIMIT 20
        `.pipe(decodeRows(DepositRow))
        return { deposit: view(row), recent: recent.map(view), sameReference: same.map(view), history: yield* history("deposit", id) }
      })

      const withdrawal = Effect.fn("Queues.withdrawal")(function*(id: string, viewer: Viewer) {
        const [row] = yield* sql`${withdrawalSelect} WHERE w.id = ${id}`.pipe(decodeRows(WithdrawalRow))
        if (!row) return yield* refuse("NotFound", "There is no such withdrawal request.")
        const view = withdrawalView(viewer)
        const recent = yield* sql`${withdrawalSelect} WHERE w.user_id = ${row.userId} AND w.id <> ${id} ORDER BY w.created_at DESC LIMIT 5`.pipe(decodeRows(WithdrawalRow))
        // Since the player's last paid withdrawal before this one: what came in, and what they staked (sports and casino).
        const [since] = yield* sql`
          WITH last AS (
            SELECT max(created_at) AS at FROM withdrawal_requests
             WHERE user_id = ${row.userId} AND status = 'approved' AND created_at < ${row.createdAt}
          )
          SELECT (SELECT at FROM last) AS since,
                 (SELECT coalesce(sum(amount), 0) FROM deposit_requests WHERE user_id = ${row.userId} AND status = 'approved'
                     AND created_at > coalesce((SELECT at FROM last), '-infinity') AND created_at <= ${row.createdAt})::bigint AS deposited,
                 ((SELECT coalesce(sum(stake), 0) FROM bets WHERE user_id = ${row.userId}
                     AND created_at > coalesce((SELECT at FROM last), '-infinity') AND created_at <= ${row.createdAt})
                  + (SELECT coalesce(sum(stake), 0) FROM casino_rounds WHERE user_id = ${row.userId}
                     AND created_at > coalesce((SELECT at FROM last), '-infinity') AND created_at <= ${row.createdAt}))::bigint AS wagered
        `.pipe(decodeRows(Schema.Struct({ since: Schema.NullOr(Schema.Date), deposited: Paise, wagered: Paise })))
        return {
          withdrawal: view(row),
          sinceLast: { since: iso(since?.since ?? null), deposited: toRupees(since?.deposited ?? 0n), wagered: toRupees(since?.wagered ?? 0n) },
          recent: recent.map(view),
          history: yield* history("withdrawal", id)
        }
      })

      return Queues.of({ deposits, deposit, withdrawals, withdrawal })
    })
  )
}
