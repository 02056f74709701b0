import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { claimOf } from "../../src/domain/eventBook.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Settlement } from "../betting/Settlement.ts"
import { decodeRows } from "../db/rows.ts"
import { type Fixture, Fixtures } from "./Fixtures.ts"
import type { Runner } from "./prices.ts"
import { Draws } from "./Draws.ts"
import { fancyState, isRacingCode, matchAt, matchDuration, type MatchState, outcomeOf, raceWinner } from "./simulation.ts"

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

/**
 * The winner of an exchange or bookmaker market from the final match: the
 * runner on the outcome its space settled on (`outcomeOf`); undefined to
 * void it (a tie with no draw to back). A race (or an event with no match
 * simulated) is drawn from the event's seed, by its runners' chances.
 */
export const winnerOf = (
  market: { readonly name: string; readonly marketType: MarketType; readonly runners: ReadonlyArray<Runner> },
  sportCode: string,
  match: MatchState | undefined,
  seed: string
) => {
  const ids = market.runners.map((r) => r.selectionId)
  if (isRacingCode(sportCode) || !match) return ids[raceWinner(seed, ids.length)]
  const claim = claimOf(market)
  if (claim.kind !== "outcomes") return undefined
  const outcome = outcomeOf(claim.space, match)
  const index = outcome === undefined ? -1 : claim.outcomes.indexOf(outcome)
  return index === -1 ? undefined : ids[index]
}

/**
 * Events from start to finish, as the feed drives them. An event whose time
 * has come goes in play. One that has run its course is first claimed as
 * `settling` (a conditional update, so one server does it; bets are refused
 * and the catalogue no longer lists it from then on), then each of its
 * markets is settled from the final score in its own transaction, and only
 * when none is left is it `finished`, together with its successor's
 * scheduling and the publication of its seed. A finished event never has a market left to settle; one left
 * `settling` by a server that stopped half-way is picked up by `recover`.
 */
export class Lifecycle extends Context.Service<Lifecycle, {
  /** Scheduled events whose start is at or before `now` go in play; their ids. */
  startDue(now: number): Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
  /** Settles and finishes a live event; false when it was not live (another server got there first). */
  finish(event: Fixture, now: number): Effect.Effect<boolean, SqlError.SqlError>
  /** Settles and finishes events left `settling`; how many there were. */
  recover(now: number): Effect.Effect<number, SqlError.SqlError>
  /** A market whose result is known before the event ends (a fancy's runs, a runner's selection id), settled once. */
  settleEarly(externalId: string, result: string): Effect.Effect<void, SqlError.SqlError>
}>()("khel/Lifecycle") {
  static readonly layer = Layer.effect(
    Lifecycle,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settlement = yield* Settlement
      const fixtures = yield* Fixtures
      const draws = yield* Draws

      /** A market another server or an operator settled already answers 409: nothing left to do. */
      const once = <A, R>(effect: Effect.Effect<A, { readonly _tag: "ApiError" } | SqlError.SqlError, R>) =>
        effect.pipe(Effect.asVoid, Effect.catchTag("ApiError", () => Effect.void))

      const startDue = (now: number) =>
        // Cast, not decoded: ids only, used as keys.
        sql<{ id: string }>`
          UPDATE events SET status = 'live' WHERE status = 'scheduled' AND starts_at <= ${new Date(now)} RETURNING id
        `.pipe(Effect.map((rows) => rows.map((row) => row.id)), Effect.withSpan("Lifecycle.startDue"))

      /** Every market still to settle, from the final score; then finished with its successor and its seed revealed, if none is left. */
      const settleAndFinish = (event: Fixture, now: number) =>
        Effect.gen(function*() {
          const seed = (yield* draws.seeds([event.id])).get(event.id)!
          const final = matchAt({ ...event, seed }, event.startsAt + matchDuration(event.sportCode))
          const markets = yield* sql`
            SELECT m.external_id, m.name, m.market_type,
                   (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                      FROM runners r WHERE r.market_id = m.id) AS runners
              FROM markets m WHERE m.event_id = ${event.id} AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')
          `.pipe(decodeRows(UnsettledMarket))
          for (const market of markets) {
            const fancy = market.marketType === "FANCY" ? fancyState(market.name, final) : undefined
            const outcome = fancy ? (fancy.void ? undefined : String(fancy.result ?? fancy.line)) : winnerOf({ ...market, runners: market.runners ?? [] }, event.sportCode, final, seed)
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
            if (finished.length === 0) return
            yield* fixtures.scheduleNext(event, now)
            yield* draws.reveal(event.id)
          }))
          // An older secret whose last event this was can go now.
          yield* draws.eraseSpent
        })

      const finish = (event: Fixture, now: number) =>
        Effect.gen(function*() {
          const claimed = yield* sql`UPDATE events SET status = 'settling' WHERE id = ${event.id} AND status = 'live' RETURNING id`
          if (claimed.length === 0) return false
          yield* settleAndFinish(event, now)
          return true
        }).pipe(Effect.withSpan("Lifecycle.finish", { attributes: { eventId: event.id } }))

      const recover = (now: number) =>
        Effect.gen(function*() {
          const settling = yield* sql`
            SELECT e.id, e.name, s.code AS sport_code, e.starts_at, e.league_id
              FROM events e JOIN leagues l ON l.id = e.league_id JOIN sports s ON s.id = l.sport_id
             WHERE e.status = 'settling'
             ORDER BY e.starts_at
             LIMIT 20
          `.pipe(decodeRows(SettlingEvent))
          for (const row of settling) yield* settleAndFinish({ ...row, startsAt: row.startsAt.getTime() }, now)
          return settling.length
        }).pipe(Effect.withSpan("Lifecycle.recover"))

      const settleEarly = (externalId: string, result: string) => once(settlement.settle(externalId, result, FEED))

      return Lifecycle.of({ startDue, finish, recover, settleEarly })
    })
  )
}
