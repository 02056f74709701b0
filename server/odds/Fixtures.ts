import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { slugify } from "../../src/domain/sports.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { decodeRows } from "../db/rows.ts"
import { opensInPlay } from "./inPlayLines.ts"
import { hash, isRacingCode } from "./simulation.ts"

/** An event as the feed schedules and settles it. */
export interface Fixture {
  readonly id: string
  readonly name: string
  readonly sportCode: string
  readonly startsAt: number
  readonly leagueId: string
}

const Runners = Schema.NullOr(Schema.Array(Schema.Struct({ selectionId: Schema.String, name: Schema.String })))

/** A market of an event still to be played or in play, with what pricing it needs. */
export const OpenMarket = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  status: Schema.Literals(["OPEN", "SUSPENDED"]),
  sort: Schema.Number,
  eventId: Schema.String,
  eventName: Schema.String,
  startsAt: Schema.Date,
  eventStatus: Schema.Literals(["scheduled", "live"]),
  leagueId: Schema.String,
  sportCode: Schema.String,
  runners: Runners
})
export type OpenMarket = typeof OpenMarket.Type

/** How long before a new fixture starts. */
const nextStartsIn = (sportCode: string) => (isRacingCode(sportCode) ? 12 : 8) * 60_000

/**
 * The fixtures the feed prices: every open market of the events still to be
 * played or in play, and, when an event is over, the next meeting of the same
 * sides in the same league with the same markets, so the demo never runs dry.
 */
export class Fixtures extends Context.Service<Fixtures, {
  readonly openMarkets: Effect.Effect<ReadonlyArray<OpenMarket>, SqlError.SqlError>
  /** The next fixture after `event` (one, however many servers or recoveries ask), starting a few minutes after `now`. Runs inside the caller's transaction when there is one. */
  scheduleNext(event: Fixture, now: number): Effect.Effect<void, SqlError.SqlError>
  /** A fancy line opened by play (inPlayLines.ts), written once per event and name; false if it was there already. */
  addLine(eventId: string, name: string, sort: number, now: number): Effect.Effect<boolean, SqlError.SqlError>
}>()("khel/Fixtures") {
  static readonly layer = Layer.effect(
    Fixtures,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const openMarkets = sql`
        SELECT m.id, m.external_id, m.name, m.market_type, m.status, m.sort,
               e.id AS event_id, e.name AS event_name, e.starts_at, e.status AS event_status, e.league_id, s.code AS sport_code,
               (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                  FROM runners r WHERE r.market_id = m.id) AS runners
          FROM markets m
          JOIN events e ON e.id = m.event_id
          JOIN leagues l ON l.id = e.league_id
          JOIN sports s ON s.id = l.sport_id
         WHERE e.status IN ('scheduled', 'live') AND m.status IN ('OPEN', 'SUSPENDED')
         ORDER BY e.starts_at, m.sort
      `.pipe(decodeRows(OpenMarket), Effect.withSpan("Fixtures.openMarkets"))

      const scheduleNext = (event: Fixture, now: number) =>
        sql.withTransaction(Effect.gen(function*() {
          // One successor per fixture, however many servers (or recoveries) try.
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${event.leagueId}:${event.name}`}))`
          const upcoming = yield* sql`SELECT 1 FROM events WHERE league_id = ${event.leagueId} AND name = ${event.name} AND status IN ('scheduled', 'live')`
          if (upcoming.length > 0) return
          const startsAt = new Date(now + nextStartsIn(event.sportCode))
          const stamp = startsAt.toISOString().slice(0, 16).replace(/[-:T]/g, "")
          // The feed's ids: the moment and the fixture it follows make them unique.
          const external = `${now}${String(hash(event.id)).padStart(10, "0")}`
          // Cast, not decoded: ids only, used as keys.
          const [created] = yield* sql<{ id: string }>`
            INSERT INTO events (external_id, league_id, name, slug, starts_at, status)
            VALUES (${`9${external}`}, ${event.leagueId}, ${event.name}, ${slugify(`${event.name} ${stamp}`)}, ${startsAt}, 'scheduled')
            ON CONFLICT DO NOTHING
            RETURNING id
          `
          if (!created) return
          // Cast, not decoded: copied into new rows unchanged.
          const old = yield* sql<{ id: string; name: string; marketType: string; sort: number }>`
            SELECT id, name, market_type, sort FROM markets WHERE event_id = ${event.id} ORDER BY sort
          `
          for (const [index, market] of old.entries()) {
            // Lines play opened are opened again by the next match's play.
            if (opensInPlay(market.name)) continue
            // Cast, not decoded: ids only, used as keys.
            const [copy] = yield* sql<{ id: string }>`
              INSERT INTO markets (external_id, event_id, name, market_type, starts_at, sort)
              VALUES (${`1.${external}${index}`}, ${created.id}, ${market.name}, ${market.marketType}, ${startsAt}, ${market.sort})
              RETURNING id
            `
            yield* sql`
              INSERT INTO runners (selection_id, market_id, name, sort)
              SELECT selection_id, ${copy!.id}, name, sort FROM runners WHERE market_id = ${market.id}
            `
          }
        })).pipe(Effect.withSpan("Fixtures.scheduleNext"))

      const addLine = (eventId: string, name: string, sort: number, now: number) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${eventId}:${name}`}))`
          const there = yield* sql`SELECT 1 FROM markets WHERE event_id = ${eventId} AND name = ${name}`
          if (there.length > 0) return false
          const external = `${now}${String(hash(`${eventId}:${name}`)).padStart(10, "0")}`
          // Cast, not decoded: ids only, used as keys.
          const [market] = yield* sql<{ id: string }>`
            INSERT INTO markets (external_id, event_id, name, market_type, starts_at, sort)
            SELECT ${`1.${external}`}, id, ${name}, 'FANCY', starts_at, ${sort} FROM events WHERE id = ${eventId}
            RETURNING id
          `
          if (!market) return false
          yield* sql`INSERT INTO runners (selection_id, market_id, name, sort) VALUES (${`4${external}`}, ${market.id}, ${name}, 0)`
          return true
        })).pipe(Effect.withSpan("Fixtures.addLine"))

      return Fixtures.of({ openMarkets, scheduleNext, addLine })
    })
  )
}
