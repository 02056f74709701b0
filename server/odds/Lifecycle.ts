import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { MarketType } from "../../src/schema/sports.ts"
import { Settlement } from "../betting/Settlement.ts"
import { decodeRows } from "../db/rows.ts"
import { type Fixture, Fixtures } from "./Fixtures.ts"
import type { Runner } from "./prices.ts"
import { fancyState, hash, initialProbabilities, isRacingCode, matchAt, matchDuration, type MatchState, rng } from "./simulation.ts"

/** Who settles as the feed (market_results.settled_by). */
const FEED = "feed"

const UnsettledMarket = Schema.Struct({
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  runners: Schema.NullOr(Schema.Array(Schema.Struct({ selectionId: Schema.String, name: Schema.String })))
})

const SettlingEvent = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  sportCode: Schema.String,
  startsAt: Schema.Date,
  leagueId: Schema.String
})

/** A market's chances as the feed last priced them, when it still has them in memory. */
export type ChancesOf = (externalId: string) => ReadonlyArray<number> | undefined

/**
 * The winner of an exchange or bookmaker market from the final score;
 * undefined to void it (a tie with no draw). A race is drawn by the market's
 * chances (the feed's last ones, or seeded from the market's id).
 */
export const winnerOf = (
  market: { readonly externalId: string; readonly name: string; readonly runners: ReadonlyArray<Runner> },
  sportCode: string,
  match: MatchState | undefined,
  chancesOf: ChancesOf
) => {
  const ids = market.runners.map((r) => r.selectionId)
  if (isRacingCode(sportCode) || !match) {
    const probs = chancesOf(market.externalId) ?? initialProbabilities(ids.length, rng(hash(market.externalId)), false)
    const draw = rng(hash(`result:${market.externalId}`))()
    let sum = 0
    for (const [i, p] of probs.entries()) if ((sum += p) >= draw) return ids[i]
    return ids.at(-1)
  }
  if (market.name.startsWith("Over/Under")) {
    const over = market.runners.find((r) => r.name.startsWith("Over"))
    const under = market.runners.find((r) => r.name.startsWith("Under"))
    const line = Number(/([\d.]+)/.exec(market.name)?.[1] ?? 2.5)
    return (match.goals ?? match.home + match.away) > line ? over?.selectionId : under?.selectionId
  }
  if (match.home > match.away) return ids[0]
  if (match.away > match.home) return ids[1]
  return ids[2]
}

/**
 * Events from start to finish, as the feed drives them. An event whose time
 * has come goes in play. One that has run its course is first claimed as
 * `settling` (a conditional update, so one server does it; bets are refused
 * and the catalogue no longer lists it from then on), then each of its
 * markets is settled from the final score in its own transaction, and only
 * when none is left is it `finished`, together with its successor's
 * scheduling. A finished event never has a market left to settle; one left
 * `settling` by a server that stopped half-way is picked up by `recover`.
 */
export class Lifecycle extends Context.Service<Lifecycle, {
  /** Scheduled events whose start is at or before `now` go in play; their ids. */
  startDue(now: number): Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
  /** Settles and finishes a live event; false when it was not live (another server got there first). */
  finish(event: Fixture, now: number, chancesOf: ChancesOf): Effect.Effect<boolean, SqlError.SqlError>
  /** Settles and finishes events left `settling`; how many there were. */
  recover(now: number, chancesOf: ChancesOf): Effect.Effect<number, SqlError.SqlError>
  /** A fancy whose result is known, settled once. */
  settleFancy(externalId: string, runs: number): Effect.Effect<void, SqlError.SqlError>
}>()("khel/Lifecycle") {
  static readonly layer = Layer.effect(
    Lifecycle,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settlement = yield* Settlement
      const fixtures = yield* Fixtures

      /** A market another server or an operator settled already answers 409: nothing left to do. */
      const once = <A, R>(effect: Effect.Effect<A, { readonly _tag: "ApiError" } | SqlError.SqlError, R>) =>
        effect.pipe(Effect.asVoid, Effect.catchTag("ApiError", () => Effect.void))

      const startDue = (now: number) =>
        sql<{ id: string }>`
          UPDATE events SET status = 'live' WHERE status = 'scheduled' AND starts_at <= ${new Date(now)} RETURNING id
        `.pipe(Effect.map((rows) => rows.map((row) => row.id)), Effect.withSpan("Lifecycle.startDue"))

      /** Every market still to settle, from the final score; then finished with its successor, if none is left. */
      const settleAndFinish = (event: Fixture, now: number, chancesOf: ChancesOf) =>
        Effect.gen(function*() {
          const final = matchAt(event, event.startsAt + matchDuration(event.sportCode))
          const markets = yield* sql`
            SELECT m.external_id, m.name, m.market_type,
                   (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                      FROM runners r WHERE r.market_id = m.id) AS runners
              FROM markets m WHERE m.event_id = ${event.id} AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')
          `.pipe(decodeRows(UnsettledMarket))
          for (const market of markets) {
            const fancy = market.marketType === "FANCY" ? fancyState(market.name, final) : undefined
            const outcome = fancy ? String(fancy.result ?? fancy.line) : winnerOf({ ...market, runners: market.runners ?? [] }, event.sportCode, final, chancesOf)
            yield* once(outcome === undefined
              ? settlement.voidMarket(market.externalId, "No result", FEED)
              : settlement.settle(market.externalId, outcome, FEED))
          }
          yield* sql.withTransaction(Effect.gen(function*() {
            const finished = yield* sql`
              UPDATE events e SET status = 'finished'
               WHERE e.id = ${event.id} AND e.status = 'settling'
                 AND NOT EXISTS (SELECT 1 FROM markets m WHERE m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED'))
              RETURNING e.id
            `
            if (finished.length > 0) yield* fixtures.scheduleNext(event, now)
          }))
        })

      const finish = (event: Fixture, now: number, chancesOf: ChancesOf) =>
        Effect.gen(function*() {
          const claimed = yield* sql`UPDATE events SET status = 'settling' WHERE id = ${event.id} AND status = 'live' RETURNING id`
          if (claimed.length === 0) return false
          yield* settleAndFinish(event, now, chancesOf)
          return true
        }).pipe(Effect.withSpan("Lifecycle.finish", { attributes: { eventId: event.id } }))

      const recover = (now: number, chancesOf: ChancesOf) =>
        Effect.gen(function*() {
          const settling = yield* sql`
            SELECT e.id, e.name, s.code AS sport_code, e.starts_at, e.league_id
              FROM events e JOIN leagues l ON l.id = e.league_id JOIN sports s ON s.id = l.sport_id
             WHERE e.status = 'settling'
             ORDER BY e.starts_at
             LIMIT 20
          `.pipe(decodeRows(SettlingEvent))
          for (const row of settling) yield* settleAndFinish({ ...row, startsAt: row.startsAt.getTime() }, now, chancesOf)
          return settling.length
        }).pipe(Effect.withSpan("Lifecycle.recover"))

      const settleFancy = (externalId: string, runs: number) => once(settlement.settle(externalId, String(runs), FEED))

      return Lifecycle.of({ startDue, finish, recover, settleFancy })
    })
  )
}
