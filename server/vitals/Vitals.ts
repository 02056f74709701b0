import { Context, Effect, Layer, Schedule, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { clampVital } from "../../src/domain/vitals.ts"
import type { DeviceClass, VitalName, VitalsPayload } from "../../src/schema/vitals.ts"
import { decodeRows } from "../db/rows.ts"

/** Days of measurements kept. */
export const VITALS_RETENTION_DAYS = 90

/** One line of the operator's report: the 75th percentile of each vital on a route and device class. */
export interface VitalsLine {
  readonly route: string
  readonly device: DeviceClass
  readonly samples: number
  readonly p75: Partial<Record<VitalName, number>>
}

const ReportRow = Schema.Struct({
  route: Schema.String,
  device: Schema.Literals(["mobile", "tablet", "desktop"]),
  name: Schema.Literals(["LCP", "INP", "CLS", "TTFB"]),
  samples: Schema.Int,
  p75: Schema.Finite
})

/**
 * Real-user vitals: the site's beacons stored with the visitor that sent
 * them, each value clamped to what a real page load measures
 * (`PLAUSIBLE_MAX`), and the 75th percentile per route and device class (the
 * figure Core Web Vitals are judged by) over visitors, not reports: each
 * visitor counts once, by the median of their own measurements, so many
 * reports from one browser weigh as one.
 */
export class Vitals extends Context.Service<Vitals, {
  record(batch: VitalsPayload, visitor: string): Effect.Effect<void, SqlError.SqlError>
  report(days: number): Effect.Effect<ReadonlyArray<VitalsLine>, SqlError.SqlError>
}>()("khel/Vitals") {
  static readonly layer = Layer.effect(
    Vitals,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const record = Effect.fn("Vitals.record")(function*(batch: VitalsPayload, visitor: string) {
        const vitals = batch.vitals.map((vital) => ({ ...vital, value: clampVital(vital.name, vital.value) }))
        yield* sql`
          INSERT INTO web_vitals (name, value, rating, route, device, connection, visitor)
          SELECT v.name, v.value, v.rating, ${batch.route}, ${batch.device}, ${batch.connection ?? null}, ${visitor}
            FROM json_to_recordset(${JSON.stringify(vitals)}::json) AS v (name text, value double precision, rating text)
        `
      })

      // Keep the table to its window: a sweep when the server starts and once a day.
      yield* sql`DELETE FROM web_vitals WHERE recorded_at < now() - ${`${VITALS_RETENTION_DAYS} days`}::interval`.pipe(
        Effect.catch((error) => Effect.logWarning("old vitals not deleted", error)),
        Effect.repeat(Schedule.spaced("1 day")),
        Effect.forkScoped
      )

      const report = Effect.fn("Vitals.report")(function*(days: number) {
        const rows = yield* sql`
          WITH per_visitor AS (
            SELECT route, device, name, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS value
              FROM web_vitals
             WHERE recorded_at > now() - ${`${days} days`}::interval
             GROUP BY route, device, name, coalesce(visitor, id::text)
          )
          SELECT route, device, name, count(*)::int AS samples,
                 percentile_cont(0.75) WITHIN GROUP (ORDER BY value) AS p75
            FROM per_visitor
           GROUP BY route, device, name
           ORDER BY route, device, name
        `.pipe(decodeRows(ReportRow))
        const lines = new Map<string, { route: string; device: DeviceClass; samples: number; p75: Partial<Record<VitalName, number>> }>()
        for (const row of rows) {
          const key = `${row.route} ${row.device}`
          const line = lines.get(key) ?? { route: row.route, device: row.device, samples: 0, p75: {} }
          // Every visitor reports some vital, so the most-sampled vital counts the visitors.
          line.samples = Math.max(line.samples, row.samples)
          line.p75[row.name] = row.p75
          lines.set(key, line)
        }
        return [...lines.values()]
      })

      return Vitals.of({ record, report })
    })
  )
}
