import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { marketRisk } from "../../src/domain/risk.ts"
import type { MarketApproval, RiskMarket } from "../../src/schema/desk/markets.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Matches, matchedPositions } from "../betting/Bets.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"
import type { OddsFeed } from "../odds/OddsFeed.ts"
import { DecisionColumns, decisionView } from "./approvals.ts"

/**
 * The desk's book of the markets still to settle, as read: each market with
 * its runners, its players' open bets (src/domain/risk.ts makes the house's
 * liability of them), the feed's book and any settle or void request waiting
 * for a second pair of eyes. Markets.ts acts on them.
 */

export const MarketRow = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  status: Schema.Literals(["OPEN", "SUSPENDED", "CLOSED"]),
  eventId: Schema.String,
  eventName: Schema.String,
  startsAt: Schema.Date,
  eventStatus: Schema.String,
  sport: Schema.String
})
export type MarketRow = typeof MarketRow.Type

export const RunnerRow = Schema.Struct({ marketId: Schema.String, selectionId: Schema.String, name: Schema.String })

/** An open bet as the book counts it. */
export const BetRow = Schema.Struct({
  marketId: Schema.String,
  userId: Schema.String,
  selectionId: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: NumericText,
  size: Schema.NullOr(NumericText),
  stake: Paise,
  matches: Schema.NullOr(Matches)
})

export const ApprovalRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["settle", "void"]),
  subject: Schema.String,
  payload: Schema.Struct({ result: Schema.optionalKey(Schema.String), reason: Schema.optionalKey(Schema.String) }),
  amount: Paise,
  ...DecisionColumns
})
export type ApprovalRow = typeof ApprovalRow.Type

/** A settle or void request as the desk shows it to `viewer`. */
export const approvalView = (viewer: string) => (row: ApprovalRow): MarketApproval => ({
  _id: row.id,
  kind: row.kind,
  marketId: row.subject,
  result: row.payload.result ?? null,
  reason: row.payload.reason ?? null,
  liability: toRupees(row.amount),
  ...decisionView(viewer, row)
})

/** The reads of the markets' book (`sql` the service's client, `feed` its odds feed). */
export const marketReads = (sql: SqlClient.SqlClient, feed: OddsFeed["Service"]) => {
  const marketSelect = sql`
    SELECT m.id, m.external_id, m.name, m.market_type, m.status, e.external_id AS event_id, e.name AS event_name,
           e.starts_at, e.status AS event_status, s.name AS sport
      FROM markets m
      JOIN events e ON e.id = m.event_id
      JOIN leagues l ON l.id = e.league_id
      JOIN sports s ON s.id = l.sport_id
  `

  const runnersOf = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.succeed([]) : sql`
      SELECT market_id, selection_id, name FROM runners WHERE market_id IN ${sql.in(ids)} ORDER BY market_id, sort
    `.pipe(decodeRows(RunnerRow))

  const betsOf = (ids: ReadonlyArray<string>) =>
    ids.length === 0 ? Effect.succeed([]) : sql`
      SELECT market_id, user_id, selection_id, side, odds::text AS odds, size::text AS size, stake, matches
        FROM bets WHERE status = 'open' AND market_id IN ${sql.in(ids)}
    `.pipe(decodeRows(BetRow))

  const approvalSelect = sql`
    SELECT a.id, a.kind, a.subject, a.payload, a.amount, a.requested_by AS requested_by_id, asker.username AS requested_by,
           a.requested_at, a.status, decider.username AS decided_by, a.decided_at, a.remark
      FROM desk_approvals a
      JOIN users asker ON asker.id = a.requested_by
      LEFT JOIN users decider ON decider.id = a.decided_by
  `

  const pendingApprovals = (subjects?: ReadonlyArray<string>) =>
    subjects?.length === 0 ? Effect.succeed([]) : sql`
      ${approvalSelect} WHERE a.status = 'pending' AND a.kind IN ('settle', 'void')
        ${subjects ? sql`AND a.subject IN ${sql.in(subjects)}` : sql``}
       ORDER BY a.requested_at
    `.pipe(decodeRows(ApprovalRow))

  /** The markets with their book, liability and pending request, computed from their open bets. */
  const withRisk = (rows: ReadonlyArray<MarketRow>, viewer: string) =>
    Effect.gen(function*() {
      const ids = rows.map((row) => row.id)
      const runners = yield* runnersOf(ids)
      const bets = yield* betsOf(ids)
      const approvals = yield* pendingApprovals(rows.map((row) => row.externalId))
      const byMarket = <A extends { readonly marketId: string }>(list: ReadonlyArray<A>) => {
        const map = new Map<string, Array<A>>()
        for (const item of list) map.set(item.marketId, [...(map.get(item.marketId) ?? []), item])
        return map
      }
      const runnersBy = byMarket(runners)
      const betsBy = byMarket(bets)
      return rows.map((row) => {
        const open = betsBy.get(row.id) ?? []
        // Only what is matched is at stake: what waits unmatched is cancelled at settlement.
        const risk = marketRisk(row.marketType, runnersBy.get(row.id) ?? [], open.flatMap(matchedPositions))
        const book = feed.book(row.externalId)
        const approval = approvals.find((a) => a.subject === row.externalId)
        const view: RiskMarket = {
          marketId: row.externalId,
          name: row.name,
          marketType: row.marketType,
          status: row.status,
          bookStatus: book?.status ?? null,
          event: { id: row.eventId, name: row.eventName, startsAt: row.startsAt.toISOString(), status: row.eventStatus, sport: row.sport },
          openBets: open.length,
          players: new Set(open.map((bet) => bet.userId)).size,
          liability: toRupees(risk.liability),
          approval: approval ? approvalView(viewer)(approval) : null
        }
        return { view, risk, book, liabilityPaise: risk.liability }
      })
    })

  const unsettled = (marketId: string) =>
    sql`${marketSelect} WHERE m.external_id = ${marketId} AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')`.pipe(decodeRows(MarketRow), Effect.map((rows) => rows[0]))

  return { marketSelect, runnersOf, approvalSelect, pendingApprovals, withRisk, unsettled }
}
