import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { RacingSport } from "../../src/schema/sports.ts"
import { nestCatalogue } from "../catalogue/Catalogue.ts"

/**
 * /racing's hierarchy: sport -> countries -> tracks -> races with their
 * markets. Tracks are the racing sports' leagues, grouped by their country.
 */
export class Racing extends Context.Service<Racing, {
  readonly hierarchy: Effect.Effect<ReadonlyArray<RacingSport>, SqlError.SqlError>
}>()("khel/Racing") {
  static readonly layer = Layer.effect(
    Racing,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const hierarchy = Effect.gen(function*() {
        const rows = yield* sql<Parameters<typeof nestCatalogue>[0][number] & { countryCode: string | null; countryName: string | null }>`
          SELECT s.id AS sport_id, s.name AS sport_name, s.slug AS sport_slug, s.code AS sport_code,
                 l.id AS league_id, l.name AS league_name, l.slug AS league_slug, l.country_code, l.country_name,
                 e.id AS event_id, e.external_id AS event_external_id, e.name AS event_name, e.slug AS event_slug,
                 e.starts_at, e.status AS event_status,
                 m.id AS market_id, m.external_id AS market_external_id, m.name AS market_name,
                 m.market_type, m.status AS market_status, m.starts_at AS market_starts_at,
                 (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                    FROM runners r WHERE r.market_id = m.id) AS runners
            FROM events e
            JOIN leagues l ON l.id = e.league_id
            JOIN sports s ON s.id = l.sport_id AND s.is_racing
            LEFT JOIN markets m ON m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED')
           WHERE e.status IN ('scheduled', 'live')
           ORDER BY s.name, l.country_name, l.name, e.starts_at, e.id, m.sort
        `
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
      }).pipe(Effect.withSpan("Racing.hierarchy"))
      return Racing.of({ hierarchy })
    })
  )
}
