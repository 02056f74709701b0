import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { needsSecondApprover } from "../../src/domain/staff.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import { DEFAULT_PAGE } from "../../src/schema/desk/common.ts"
import type { MarketAction, MarketRisk, RiskMarket, RiskQuery, RiskSummary } from "../../src/schema/desk/markets.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Settlement } from "../betting/Settlement.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { closeApproval, judgeApproval } from "./approvals.ts"
import { ApprovalRow, approvalView, MarketRow, marketReads } from "./marketReads.ts"
import { type Actor, Audit } from "./Audit.ts"
import { Thresholds } from "./Thresholds.ts"

/** A staff member on the desk (four eyes needs to know who asked and who approves). */
export type StaffActor = Actor & { readonly kind: "staff" }

const ExposedRow = Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String, mobileNo: Schema.String, exposure: Paise, count: Schema.Int })

const WHAT = { settle: "request to settle this market", void: "request to void this market" } as const


/**
 * The desk's Markets and risk (docs/backoffice.md): the house's book of every
 * market still to settle (read in marketReads.ts; src/domain/risk.ts over the players' open bets),
 * its liability and the most exposed players; suspending, resuming and
 * pricing through the odds feed; settling and voiding through Settlement, the
 * same service as the command line's, with four eyes above the DIRECTOR's
 * threshold: the request waits in desk_approvals (one per market) until a
 * different ADMIN or DIRECTOR approves it, which settles in the same
 * transaction, or declines it. Every write is audited in its transaction.
 */
export class Markets extends Context.Service<Markets, {
  summary(viewer: string): Effect.Effect<RiskSummary, SqlError.SqlError>
  list(query: RiskQuery, viewer: string): Effect.Effect<{ items: ReadonlyArray<RiskMarket>; next: string | null; total: number }, ApiError | SqlError.SqlError>
  market(marketId: string, viewer: string): Effect.Effect<MarketRisk, ApiError | SqlError.SqlError>
  setStatus(actor: StaffActor, marketId: string, status: "OPEN" | "SUSPENDED"): Effect.Effect<RiskMarket, ApiError | SqlError.SqlError>
  setPrice(actor: StaffActor, marketId: string, change: { readonly selectionId: string; readonly back?: { price: number; size: number }; readonly lay?: { price: number; size: number } }): Effect.Effect<RiskMarket, ApiError | SqlError.SqlError>
  /**
   * Settles (`result`) or voids (`reason`) a market: at once when its liability is within the threshold; above it,
   * `propose` files the request for a second approver, else it is refused (SecondApproverNeeded).
   */
  decide(actor: Actor, marketId: string, decision: Decision, above: "propose" | "refuse"): Effect.Effect<MarketAction, ApiError | SqlError.SqlError>
  approve(actor: StaffActor, approvalId: string, remark: string | undefined): Effect.Effect<MarketAction, ApiError | SqlError.SqlError>
  decline(actor: StaffActor, approvalId: string, remark: string | undefined): Effect.Effect<MarketAction, ApiError | SqlError.SqlError>
}>()("khel/Markets") {
  static readonly layer = Layer.effect(
    Markets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settlement = yield* Settlement
      const feed = yield* OddsFeed
      const audit = yield* Audit
      const thresholds = yield* Thresholds
      const realtime = yield* Realtime

      const { marketSelect, runnersOf, approvalSelect, pendingApprovals, withRisk, unsettled } = marketReads(sql, feed)

      const oneMarket = (marketId: string, viewer: string) =>
        Effect.gen(function*() {
          const row = yield* unsettled(marketId)
          if (!row) return yield* refuse("NotFound", "There is no such market still to settle.")
          return (yield* withRisk([row], viewer))[0]!
        })

      const list = Effect.fn("Markets.list")(function*(query: RiskQuery, viewer: string) {
        const offset = query.after === undefined ? 0 : /^\d{1,6}$/.test(query.after) ? Number(query.after) : undefined
        if (offset === undefined) return yield* refuse("InvalidInput", "That page does not exist: reload the list.")
        const search = query.search?.trim().toLowerCase()
        const like = search ? `%${search.replace(/[\\%_]/g, "\\$&")}%` : null
        const rows = yield* sql`
          ${marketSelect}
           WHERE m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')
             AND (${like}::text IS NULL OR lower(e.name) LIKE ${like} OR lower(m.name) LIKE ${like})
             AND (${query.bets === "all"} OR EXISTS (SELECT 1 FROM bets b WHERE b.market_id = m.id AND b.status = 'open'))
           ORDER BY e.starts_at, m.sort
           LIMIT 2000
        `.pipe(decodeRows(MarketRow))
        const scored = yield* withRisk(rows, viewer)
        // Biggest liability first; then the events' order.
        const sorted = scored.map((s, i) => ({ ...s, i })).sort((a, b) => b.liabilityPaise - a.liabilityPaise || a.i - b.i)
        const limit = query.limit ?? DEFAULT_PAGE
        const shown = sorted.slice(offset, offset + limit)
        return { items: shown.map((s) => s.view), next: offset + limit < sorted.length ? String(offset + limit) : null, total: sorted.length }
      })

      const exposed = (marketId: string | undefined, limit: number) =>
        sql`
          SELECT u.id, u.username, u.name, u.mobile_no, sum(x.exposure)::bigint AS exposure, count(*)::int AS count
            FROM market_exposures x
            JOIN markets m ON m.id = x.market_id
            JOIN users u ON u.id = x.user_id
           WHERE m.status IN ('OPEN', 'SUSPENDED', 'CLOSED') AND x.exposure > 0 ${marketId ? sql`AND m.external_id = ${marketId}` : sql``}
           GROUP BY u.id
           ORDER BY sum(x.exposure) DESC, u.id
           LIMIT ${limit}
        `.pipe(decodeRows(ExposedRow))

      const refOf = (row: typeof ExposedRow.Type) => ({ id: row.id, username: row.username, name: row.name, mobileNo: row.mobileNo })

      const summary = Effect.fn("Markets.summary")(function*(viewer: string) {
        const rows = yield* sql`
          ${marketSelect} WHERE m.status IN ('OPEN', 'SUSPENDED', 'CLOSED') AND EXISTS (SELECT 1 FROM bets b WHERE b.market_id = m.id AND b.status = 'open')
        `.pipe(decodeRows(MarketRow))
        const scored = yield* withRisk(rows, viewer)
        const top = yield* exposed(undefined, 10)
        const approvals = yield* pendingApprovals()
        const limits = yield* thresholds.current
        return {
          liability: toRupees(scored.reduce((sum, s) => sum + s.liabilityPaise, 0)),
          markets: scored.length,
          openBets: scored.reduce((sum, s) => sum + s.view.openBets, 0),
          topPlayers: top.map((row) => ({ player: refOf(row), exposure: toRupees(row.exposure), markets: row.count })),
          approvals: approvals.map(approvalView(viewer)),
          threshold: toRupees(limits.liabilityPaise)
        } satisfies RiskSummary
      })

      const levelOf = (book: MarketBook | undefined, selectionId: string, side: "back" | "lay") =>
        book?.runners.find((r) => r.selectionId === selectionId)?.[side][0]?.price ?? null

      const market = Effect.fn("Markets.market")(function*(marketId: string, viewer: string) {
        const { view, risk, book } = yield* oneMarket(marketId, viewer)
        const players = yield* sql`
          SELECT u.id, u.username, u.name, u.mobile_no, x.exposure,
                 (SELECT count(*)::int FROM bets b WHERE b.market_id = x.market_id AND b.user_id = x.user_id AND b.status = 'open') AS count
            FROM market_exposures x JOIN markets m ON m.id = x.market_id JOIN users u ON u.id = x.user_id
           WHERE m.external_id = ${marketId}
           ORDER BY x.exposure DESC, u.id LIMIT 20
        `.pipe(decodeRows(ExposedRow))
        const limits = yield* thresholds.current
        const fancy = view.marketType === "FANCY" ? book?.runners[0] : undefined
        return {
          market: view,
          runners: risk.runners.map((line) => ({
            selectionId: line.selectionId,
            name: line.name,
            house: toRupees(line.house),
            back: levelOf(book, line.selectionId, "back"),
            lay: levelOf(book, line.selectionId, "lay")
          })),
          bands: risk.bands.map((band) => ({ from: band.from, to: band.to, house: toRupees(band.house) })),
          line: fancy ? { yes: fancy.back[0]?.price ?? null, no: fancy.lay[0]?.price ?? null } : null,
          players: players.map((row) => ({ player: refOf(row), exposure: toRupees(row.exposure), bets: row.count })),
          threshold: toRupees(limits.liabilityPaise)
        } satisfies MarketRisk
      })

      /** Every open desk reads the market (and the summary) again once the change is committed. */
      const changed = (marketId: string) => sql.afterCommit(realtime.notifyDesk("markets", marketId))

      const feedChange = (actor: StaffActor, marketId: string, action: string, input: Parameters<OddsFeed["Service"]["setPrice"]>[0]) =>
        Effect.gen(function*() {
          const before = (yield* oneMarket(marketId, actor.id)).book ?? null
          const book = yield* feed.setPrice(input)
          // The price is the feed's (memory, or the leader's), not a row: its line is written once it took.
          yield* audit.record(actor, { action, subject: { kind: "market", id: marketId }, before, after: { ...input, status: book.status } })
          yield* realtime.notifyDesk("markets", marketId)
          return (yield* oneMarket(marketId, actor.id)).view
        })

      const setStatus = Effect.fn("Markets.setStatus")((actor: StaffActor, marketId: string, status: "OPEN" | "SUSPENDED") =>
        feedChange(actor, marketId, status === "OPEN" ? "market.resume" : "market.suspend", { marketId, status })
      )

      const setPrice = Effect.fn("Markets.setPrice")((actor: StaffActor, marketId: string, change: { readonly selectionId: string; readonly back?: { price: number; size: number }; readonly lay?: { price: number; size: number } }) =>
        change.back === undefined && change.lay === undefined ? Effect.fail(refuse("InvalidInput", "Give a back or a lay price.")) : feedChange(actor, marketId, "market.price", { marketId, ...change })
      )

      /** Whether a result names a runner of the market, or a fancy's runs: checked before a request waits for approval. */
      const checkResult = (row: MarketRow, result: string) =>
        Effect.gen(function*() {
          if (row.marketType === "FANCY") {
            if (!/^\d{1,5}$/.test(result.trim())) return yield* refuse("Refused", "A fancy result is the number of runs.")
            return
          }
          const runners = yield* runnersOf([row.id])
          if (!runners.some((r) => r.selectionId === result)) return yield* refuse("Refused", "The result must be a selection of this market.")
        })

      /** Runs the settlement or void itself (Settlement, as the command line does), audited; the feed closes the market after commit. */
      const execute = (actor: Actor, marketId: string, decision: Decision, by: string) =>
        Effect.gen(function*() {
          const done = "result" in decision ? yield* settlement.settle(marketId, decision.result, by) : yield* settlement.voidMarket(marketId, decision.reason, by)
          yield* audit.record(actor, { action: "result" in decision ? "market.settle" : "market.void", subject: { kind: "market", id: marketId }, after: done })
          yield* sql.afterCommit(feed.reload)
          yield* changed(marketId)
          return done
        })

      const byOf = (actor: Actor) => (actor.kind === "staff" ? `operator:${actor.id}` : "cli")

      const decide = Effect.fn("Markets.decide")(function*(actor: Actor, marketId: string, decision: Decision, above: "propose" | "refuse") {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* unsettled(marketId)
          if (!row) {
            const known = yield* sql`SELECT status FROM markets WHERE external_id = ${marketId}`.pipe(decodeRows(Schema.Struct({ status: Schema.String })))
            if (known[0]) return yield* refuse("Conflict", `This market was already ${known[0].status === "VOID" ? "voided" : "settled"}.`)
            return yield* refuse("NotFound", "No such market.")
          }
          if ("result" in decision) yield* checkResult(row, decision.result)
          const [waiting] = yield* pendingApprovals([marketId])
          if (waiting) return yield* refuse("Conflict", `${waiting.requestedBy} asked to ${waiting.kind} this market: approve or decline that request first.`)
          const { liabilityPaise } = (yield* withRisk([row], actor.kind === "staff" ? actor.id : ""))[0]!
          const limits = yield* thresholds.current
          if (!needsSecondApprover(liabilityPaise, limits.liabilityPaise)) {
            return { settlement: yield* execute(actor, marketId, decision, byOf(actor)), approval: null }
          }
          if (above === "refuse" || actor.kind !== "staff") {
            return yield* refuse("SecondApproverNeeded", `This market's liability (₹${toRupees(liabilityPaise).toFixed(2)}) is above ₹${toRupees(limits.liabilityPaise).toFixed(2)}: ask for a second approver on the desk.`)
          }
          const payload = "result" in decision ? { result: decision.result.trim() } : { reason: decision.reason }
          // One request per market at a time (a unique index): of two asked at once, one is told the other exists.
          const inserted = yield* sql`
            INSERT INTO desk_approvals (kind, subject, payload, amount, requested_by)
            VALUES (${"result" in decision ? "settle" : "void"}, ${marketId}, ${JSON.stringify(payload)}::jsonb, ${liabilityPaise}, ${actor.id})
            ON CONFLICT DO NOTHING
            RETURNING id
          `.pipe(decodeRows(Schema.Struct({ id: Schema.String })))
          if (inserted.length === 0) return yield* refuse("Conflict", "Another request for this market is already waiting: approve or decline it first.")
          const [approval] = yield* sql`${approvalSelect} WHERE a.id = ${inserted[0]!.id}`.pipe(decodeRows(ApprovalRow))
          const view = approvalView(actor.id)(approval!)
          yield* audit.record(actor, { action: `market.${view.kind}.request`, subject: { kind: "market", id: marketId }, after: view })
          yield* changed(marketId)
          return { settlement: null, approval: view }
        }))
      })

      /** Locks a request, then reads it (a statement of its own after the lock, so it sees who decided meanwhile). */
      const locked = (approvalId: string) =>
        sql`SELECT id FROM desk_approvals WHERE id = ${approvalId} AND kind IN ('settle', 'void') FOR UPDATE`.pipe(
          Effect.andThen(sql`${approvalSelect} WHERE a.id = ${approvalId}`),
          decodeRows(ApprovalRow),
          Effect.map((rows) => rows[0])
        )

      const judge = (row: ApprovalRow | undefined) => judgeApproval(row, (r) => WHAT[r.kind])

      const approve = Effect.fn("Markets.approve")(function*(actor: StaffActor, approvalId: string, remark: string | undefined) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* judge(yield* locked(approvalId))
          if (row.requestedById === actor.id) return yield* refuse("OwnProposal", "You asked for this yourself: another staff member must approve it.")
          const decision: Decision = row.kind === "settle" ? { result: row.payload.result ?? "" } : { reason: row.payload.reason ?? "" }
          const done = yield* execute(actor, row.subject, decision, byOf(actor))
          yield* closeApproval(sql, approvalId, "approved", actor.id, remark)
          const [after] = yield* sql`${approvalSelect} WHERE a.id = ${approvalId}`.pipe(decodeRows(ApprovalRow))
          const view = approvalView(actor.id)(after!)
          yield* audit.record(actor, { action: `market.${row.kind}.approve`, subject: { kind: "market", id: row.subject }, before: approvalView(actor.id)(row), after: view })
          return { settlement: done, approval: view }
        }))
      })

      const decline = Effect.fn("Markets.decline")(function*(actor: StaffActor, approvalId: string, remark: string | undefined) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* judge(yield* locked(approvalId))
          // The one who asked may take it back (withdrawn); anyone else declines it.
          const status = row.requestedById === actor.id ? "cancelled" : "rejected"
          yield* closeApproval(sql, approvalId, status, actor.id, remark)
          const [after] = yield* sql`${approvalSelect} WHERE a.id = ${approvalId}`.pipe(decodeRows(ApprovalRow))
          const view = approvalView(actor.id)(after!)
          yield* audit.record(actor, { action: `market.${row.kind}.${status === "cancelled" ? "withdraw" : "decline"}`, subject: { kind: "market", id: row.subject }, before: approvalView(actor.id)(row), after: view })
          yield* changed(row.subject)
          return { settlement: null, approval: view }
        }))
      })

      return Markets.of({ summary, list, market, setStatus, setPrice, decide, approve, decline })
    })
  )
}

/** A settlement (the winning selection id, or a fancy's runs) or a void (its reason). */
export type Decision = { readonly result: string } | { readonly reason: string }
