import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, String as Str } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { join } from "node:path"
import { ServerConfig } from "../config.ts"
import { secureDataDir } from "./dataDir.ts"
import { acquireDataDirLock } from "./lock.ts"
import { migrate } from "./migrate.ts"
import { pgliteConnection } from "./pgliteConnection.ts"

export type Engine = "pglite" | "postgres"

/** Which engine serves this process (everything else only sees `SqlClient`), and whether it answers. */
export class Database extends Context.Service<Database, {
  readonly engine: Engine
  /** One round trip to the database (health checks). */
  readonly ping: Effect.Effect<void, SqlError.SqlError>
}>()("khel/Database") {}

const clientOptions = {
  // Columns are snake_case in SQL and camelCase in rows. JSON values come as stored: every one is written with
  // camelCase keys, and renaming their keys again cost a bet about an eighth of what the server allocates for it.
  transformResultNames: Str.snakeToCamel,
  transformJson: false
} as const

/** How a server's sessions name themselves to PostgreSQL (pg_stat_activity), so its metrics count its own. */
export const applicationName = (serverId: string) => `khel ${serverId}`

/** The most connections a server opens to PostgreSQL. */
export const POOL_SIZE = 20

/**
 * The embedded database: PGlite in `$DATA_DIR/pglite`, reached over an
 * in-process stream (`pgliteConnection`) so the same PostgreSQL client and
 * queries serve both engines. PGlite runs one query at a time, hence one
 * connection.
 */
const embedded = (dataDir: string) =>
  Layer.unwrap(Effect.gen(function*() {
    yield* acquireDataDirLock(dataDir)
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => PGlite.create(join(dataDir, "pglite"))),
      (db) => Effect.promise(() => db.close())
    )
    // After PGlite has unpacked (a new database's files are world-writable): the one sweep of the folder.
    yield* secureDataDir(dataDir)
    return PgClient.layer({
      ...clientOptions,
      stream: () => pgliteConnection(db),
      username: "postgres",
      database: "postgres",
      applicationName: "khel",
      maxConnections: 1
    })
  }))

/**
 * A PostgreSQL server. Statements outside a transaction from requests that run at once share a connection and go
 * out in one write (`multiplex`): a round trip costs both sides a socket write and a wake-up, and sharing them took
 * the server's CPU per bet from 1.63 to 1.43 ms on two cores (docs/operations.md). A transaction still has its
 * connection to itself. At most 8 statements share one, so a slow one holds few behind it. A shared statement
 * cannot be cancelled on the database (it may not be alone on its connection): an interrupted request stops
 * waiting for it, and nothing here relies on cancelling one.
 */
const external = (url: string, serverId: string) =>
  PgClient.layer({
    ...clientOptions,
    url: Redacted.make(url),
    applicationName: applicationName(serverId),
    maxConnections: POOL_SIZE,
    multiplex: true,
    multiplexConcurrency: 8
  })

/** SqlClient (+ PgClient) on a migrated database, chosen by `DATABASE_URL`. */
export const DatabaseLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  // The folder holds uploads and the development SMS outbox on either engine (the embedded one secures it once
  // its database is unpacked).
  if (config.databaseUrl) yield* secureDataDir(config.dataDir)
  const engine: Engine = config.databaseUrl ? "postgres" : "pglite"
  const client = config.databaseUrl ? external(config.databaseUrl, config.serverId) : embedded(config.dataDir)
  const migrated = Layer.effectDiscard(Effect.gen(function*() {
    const applied = yield* migrate
    if (applied.length > 0) yield* Effect.logInfo("migrations applied", { engine, applied })
  }))
  const database = Layer.effect(Database, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Database.of({ engine, ping: Effect.asVoid(sql`SELECT 1`) })
  }))
  return Layer.mergeAll(migrated, database).pipe(Layer.provideMerge(client))
}))
