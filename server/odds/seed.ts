import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { slugify } from "../../src/domain/sports.ts"
import type { Seeder } from "../seed/demo.ts"

const HORSES = ["Monsoon Dancer", "Bombay Blue", "Tiger Moth", "Royal Raga", "Silver Ghat", "Kesari Wind", "Deccan Queen", "Star of Ooty"]
const TRAPS = Array.from({ length: 6 }, (_, i) => `Trap ${i + 1}`)

/** Races that start within minutes of the demo database being created, so a new player can see one run and settle. */
const SOON: ReadonlyArray<{ sport: string; track: string; race: string; minutes: number; runners: ReadonlyArray<string> }> = [
  { sport: "horse-racing", track: "mahalaxmi", race: "Mahalaxmi Sprint", minutes: 4, runners: HORSES },
  { sport: "greyhound-racing", track: "romford", race: "Romford Dash", minutes: 7, runners: TRAPS },
  { sport: "horse-racing", track: "ascot", race: "Ascot Stakes", minutes: 12, runners: HORSES.slice(0, 6) }
]

/**
 * Demo races a few minutes away (the simulator runs a race in two minutes,
 * settles it and schedules the next one at the track).
 */
export const soonRaces: Seeder = {
  name: "soon-races",
  run: (now) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const [index, spec] of SOON.entries()) {
        // Cast, not decoded: ids only, used as keys.
        const [track] = yield* sql<{ id: string }>`
          SELECT l.id FROM leagues l JOIN sports s ON s.id = l.sport_id WHERE s.slug = ${spec.sport} AND l.slug = ${spec.track}
        `
        // The demo catalogue was not loaded (or renamed): nothing to add to.
        if (!track) continue
        const startsAt = new Date(now.getTime() + spec.minutes * 60_000)
        // Cast, not decoded: ids only, used as keys.
        const [event] = yield* sql<{ id: string }>`
          INSERT INTO events (external_id, league_id, name, slug, starts_at, status)
          VALUES (${`5${String(index + 1).padStart(6, "0")}`}, ${track.id}, ${spec.race}, ${slugify(spec.race)}, ${startsAt}, 'scheduled')
          RETURNING id
        `
        // Cast, not decoded: ids only, used as keys.
        const [market] = yield* sql<{ id: string }>`
          INSERT INTO markets (external_id, event_id, name, market_type, starts_at, sort)
          VALUES (${`1.5${String(index + 1).padStart(6, "0")}`}, ${event!.id}, ${`${spec.race} Win`}, 'EXCHANGE', ${startsAt}, 0)
          RETURNING id
        `
        for (const [sort, runner] of spec.runners.entries()) {
          yield* sql`
            INSERT INTO runners (selection_id, market_id, name, sort)
            VALUES (${`6${String(index + 1).padStart(3, "0")}${String(sort + 1).padStart(3, "0")}`}, ${market!.id}, ${runner}, ${sort})
          `
        }
      }
    })
}
