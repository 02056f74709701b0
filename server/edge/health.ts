import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { Database } from "../db/database.ts"
import { loadMigrations } from "../db/migrate.ts"
import { decodeFirst } from "../db/rows.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"

/** Books last read from the store longer ago than this are stale (a server reads it every 2 s). */
export const ODDS_FRESH_MS = 10_000

const NO_STORE = { "cache-control": "no-store" }

/**
 * For load balancers and process managers: `/health` answers while the process serves requests at all
 * (liveness: restart it when not); `/ready` only while it can do its work (readiness: send it players): its
 * database answers within 2 s, every migration this code knows is applied, and its odds are fresh (read from the
 * store within 10 s, where several servers share one). Both are plain JSON outside the API, never cached.
 */
export const HealthRoutes = Layer.unwrap(Effect.gen(function*() {
  const { ping } = yield* Database
  const sql = yield* SqlClient.SqlClient
  const feed = yield* OddsFeed
  const known = loadMigrations().map((migration) => migration.id)

  const migrated = sql`SELECT count(*)::int AS n FROM schema_migrations WHERE id IN ${sql.in(known)}`.pipe(
    decodeFirst(Schema.Struct({ n: Schema.Int })),
    Effect.map((row) => row?.n === known.length)
  )
  const check = <E>(effect: Effect.Effect<boolean, E>) =>
    effect.pipe(Effect.timeout("2 seconds"), Effect.catchCause(() => Effect.succeed(false)))

  const ready = Effect.gen(function*() {
    const [database, migrations] = yield* Effect.all([check(Effect.as(ping, true)), check(migrated)], { concurrency: 2 })
    const syncedAt = feed.syncedAt?.()
    const odds = syncedAt === undefined || Date.now() - syncedAt < ODDS_FRESH_MS
    const checks = { database, migrations, odds }
    const isReady = database && migrations && odds
    return HttpServerResponse.jsonUnsafe({ status: isReady ? "ready" : "not ready", checks }, { status: isReady ? 200 : 503, headers: NO_STORE })
  })

  return Layer.mergeAll(
    HttpRouter.add("GET", "/health", HttpServerResponse.jsonUnsafe({ status: "alive" }, { headers: NO_STORE })),
    HttpRouter.add("GET", "/ready", ready)
  )
}))
