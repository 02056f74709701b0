import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { sortSports } from "../../src/domain/sports.ts"
import type { Event, League, Market, MarketType, RacingSport, Sport, SportsData } from "../../src/schema/sports.ts"

interface Row {
  sportId: string
  sportName: string
  sportSlug: string
  sportCode: string
  leagueId: string
  leagueName: string
  leagueSlug: string
  isRacing: boolean
  countryCode: string | null
  countryName: string | null
  eventId: string
  eventExternalId: string
  eventName: string
  eventSlug: string
  startsAt: Date
  eventStatus: string
  marketId: string | null
  marketExternalId: string | null
  marketName: string | null
  marketType: MarketType | null
  marketStatus: Market["status"] | null
  marketStartsAt: Date | null
  runners: ReadonlyArray<{ selectionId: string; name: string }> | null
}

/** Nests flat rows (one per market) into sports -> leagues -> events -> markets. */
export const nestCatalogue = (rows: ReadonlyArray<Row>): SportsData => {
  const sports = new Map<string, Sport & { leagues: Array<League & { events: Array<Event & { markets: Array<Market> }> }> }>()
  const leagues = new Map<string, League & { events: Array<Event & { markets: Array<Market> }> }>()
  const events = new Map<string, Event & { markets: Array<Market> }>()
  for (const row of rows) {
    let sport = sports.get(row.sportId)
    if (!sport) {
      sport = { _id: row.sportId, name: row.sportName, slugName: row.sportSlug, sportsCode: row.sportCode, leagues: [] }
      sports.set(row.sportId, sport)
    }
    let league = leagues.get(row.leagueId)
    if (!league) {
      league = { _id: row.leagueId, name: row.leagueName, slugName: row.leagueSlug, events: [] }
      leagues.set(row.leagueId, league)
      sport.leagues.push(league)
    }
    let event = events.get(row.eventId)
    if (!event) {
      event = {
        _id: row.eventId,
        id: row.eventExternalId,
        name: row.eventName,
        slugName: row.eventSlug,
        date: new Date(row.startsAt).toISOString(),
        sportCode: row.sportCode,
        inPlay: row.eventStatus === "live",
        markets: []
      }
      events.set(row.eventId, event)
      league.events.push(event)
    }
    if (row.marketId && row.marketType && row.marketStatus && row.marketName && row.marketExternalId) {
      event.markets.push({
        _id: row.marketId,
        marketId: row.marketExternalId,
        name: row.marketName,
        marketType: row.marketType,
        status: row.marketStatus,
        marketStartTime: new Date(row.marketStartsAt ?? row.startsAt).toISOString(),
        runners: row.runners ?? []
      })
    }
  }
  return sortSports([...sports.values()])
}

/** /racing's hierarchy from the racing sports' rows: tracks are their leagues, grouped by country. */
export const nestRacing = (rows: ReadonlyArray<Row>): Array<RacingSport> => {
  const countryOf = new Map(rows.map((row) => [row.leagueId, { id: row.countryCode ?? "XX", name: row.countryName ?? "Other" }]))
  return nestCatalogue(rows).map((sport): RacingSport => {
    const countries = new Map<string, { id: string; name: string; tracks: Array<RacingSport["countries"][number]["tracks"][number]> }>()
    for (const track of sport.leagues) {
      const country = countryOf.get(track._id)!
      const entry = countries.get(country.id) ?? { ...country, tracks: [] }
      entry.tracks.push({ _id: track._id, name: track.name, slugName: track.slugName, events: track.events })
      countries.set(country.id, entry)
    }
    return { _id: sport._id, name: sport.name, slugName: sport.slugName, sportsCode: sport.sportsCode, countries: [...countries.values()] }
  })
}

/**
 * The sports catalogue: what is scheduled or in play, with its markets, as
 * sports -> leagues -> events (all sports) and as /racing's sport -> countries
 * -> tracks -> races (racing sports).
 */
export class Catalogue extends Context.Service<Catalogue, {
  readonly sportsData: Effect.Effect<SportsData>
  readonly racing: Effect.Effect<ReadonlyArray<RacingSport>>
  /** An event's fancy markets still open or suspended, in display order (their prices come from the odds feed). */
  fancyMarkets(eventId: string): Effect.Effect<ReadonlyArray<{ readonly id: string; readonly externalId: string; readonly name: string }>>
}>()("khel/Catalogue") {
  static readonly layer = Layer.effect(
    Catalogue,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      // Cast, not decoded: the row goes straight back out unchanged.
      const rows = sql<Row>`
        SELECT s.id AS sport_id, s.name AS sport_name, s.slug AS sport_slug, s.code AS sport_code, s.is_racing,
               l.id AS league_id, l.name AS league_name, l.slug AS league_slug, l.country_code, l.country_name,
               e.id AS event_id, e.external_id AS event_external_id, e.name AS event_name, e.slug AS event_slug,
               e.starts_at, e.status AS event_status,
               m.id AS market_id, m.external_id AS market_external_id, m.name AS market_name,
               m.market_type, m.status AS market_status, m.starts_at AS market_starts_at,
               (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                  FROM runners r WHERE r.market_id = m.id) AS runners
          FROM events e
          JOIN leagues l ON l.id = e.league_id
          JOIN sports s ON s.id = l.sport_id
          LEFT JOIN markets m ON m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED')
         WHERE e.status IN ('scheduled', 'live')
         ORDER BY s.name, l.country_name, l.name, e.starts_at, e.id, m.sort
      `.pipe(Effect.orDie)

      const sportsData = rows.pipe(Effect.map(nestCatalogue), Effect.withSpan("Catalogue.sportsData"))
      const racing = rows.pipe(Effect.map((all) => nestRacing(all.filter((row) => row.isRacing))), Effect.withSpan("Catalogue.racing"))

      const fancyMarkets = (eventId: string) =>
        // Cast, not decoded: the row goes straight back out unchanged.
        sql<{ id: string; externalId: string; name: string }>`
          SELECT id, external_id, name FROM markets
           WHERE event_id = ${eventId} AND market_type = 'FANCY' AND status IN ('OPEN', 'SUSPENDED')
           ORDER BY sort
        `.pipe(Effect.orDie, Effect.withSpan("Catalogue.fancyMarkets"))

      return Catalogue.of({ sportsData, racing, fancyMarkets })
    })
  )
}
