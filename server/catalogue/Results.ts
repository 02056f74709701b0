import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { RESULTS_PAGE, type ResultsPage, type ResultsQuery, SettledMarket } from "../../src/schema/results.ts"
import { decodeRows } from "../db/rows.ts"

const Row = Schema.Struct({
  ...SettledMarket.fields,
  id: Schema.String,
  /** The settlement's time in microseconds since 1970: the cursor's key, exact where a Date keeps milliseconds. */
  atMicros: Schema.String.check(Schema.isPattern(/^\d{1,18}$/)),
  settledAt: Schema.Date
})

/** `after` is "<microseconds>.<market row id>" of the last row of the page before. */
const cursorOf = (after: string | undefined) => {
  if (after === undefined) return Effect.succeed({ micros: null, id: null })
  const match = /^(\d{1,18})\.([\w-]{1,64})$/.exec(after)
  return match ? Effect.succeed({ micros: match[1]!, id: match[2]! }) : refuse("InvalidInput", "That page of results does not exist: open the results again.")
}

/**
 * The markets settled or voided in the last 7 days, newest first, with what each came to: the winning runner's
 * name, or a line's result. The window is the database's `now()`, the clock `market_results.settled_at` is
 * written by.
 */
export class Results extends Context.Service<Results, {
  page(query: ResultsQuery): Effect.Effect<ResultsPage, ApiError>
}>()("khel/Results") {
  static readonly layer = Layer.effect(
    Results,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const page = (query: ResultsQuery) =>
        Effect.gen(function*() {
          const limit = query.limit ?? RESULTS_PAGE
          const after = yield* cursorOf(query.after)
          const rows = yield* sql`
            SELECT m.id, ((extract(epoch FROM r.settled_at) * 1000000)::bigint)::text AS at_micros,
                   m.external_id AS market_id, m.name AS market, m.market_type,
                   e.external_id AS event_id, e.name AS event, s.name AS sport, s.slug AS sport_slug, l.name AS league,
                   r.settled_at, r.outcome,
                   CASE WHEN r.outcome = 'void' THEN NULL
                        WHEN m.market_type = 'FANCY' THEN r.result
                        ELSE coalesce((SELECT u.name FROM runners u WHERE u.market_id = m.id AND u.selection_id = r.result), r.result)
                   END AS result
              FROM market_results r
              JOIN markets m ON m.id = r.market_id
              JOIN events e ON e.id = m.event_id
              JOIN leagues l ON l.id = e.league_id
              JOIN sports s ON s.id = l.sport_id
             WHERE r.settled_at >= now() - interval '7 days'
               AND (${query.sport ?? null}::text IS NULL OR s.slug = ${query.sport ?? null})
               AND (${after.micros}::bigint IS NULL
                    OR ((extract(epoch FROM r.settled_at) * 1000000)::bigint, r.market_id) < (${after.micros}::bigint, ${after.id}::text))
             ORDER BY r.settled_at DESC, r.market_id DESC
             LIMIT ${limit + 1}
          `.pipe(decodeRows(Row), Effect.orDie)
          const shown = rows.slice(0, limit)
          const last = shown[shown.length - 1]
          return {
            rows: shown.map(({ id: _id, atMicros: _at, settledAt, ...row }) => ({ ...row, settledAt: settledAt.toISOString() })),
            next: rows.length > limit && last ? `${last.atMicros}.${last.id}` : null
          }
        }).pipe(Effect.withSpan("Results.page"))
      return Results.of({ page })
    })
  )
}
