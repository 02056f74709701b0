import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { splitStatements } from "./split.ts"

const migrationsDir = join(import.meta.dirname, "migrations")

/** Numbered plain-SQL migrations, `NNNN_name.sql`, in id order. */
export const loadMigrations = () =>
  readdirSync(migrationsDir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      id: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      statements: splitStatements(readFileSync(join(migrationsDir, file), "utf8"))
    }))

/**
 * Applies pending migrations in one transaction. The advisory lock makes
 * servers that start together against one PostgreSQL take turns.
 */
export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const migrations = loadMigrations()
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT pg_advisory_xact_lock(4242001)`
    yield* sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`
    // Cast, not decoded: ids only, used as keys.
    const rows = yield* sql<{ id: number }>`SELECT id FROM schema_migrations`
    const applied = new Set(rows.map((row) => row.id))
    const pending = migrations.filter((migration) => !applied.has(migration.id))
    for (const migration of pending) {
      for (const statement of migration.statements) yield* sql.unsafe(statement)
      yield* sql`INSERT INTO schema_migrations (id, name) VALUES (${migration.id}, ${migration.name})`
    }
    return pending.map((migration) => `${String(migration.id).padStart(4, "0")}_${migration.name}`)
  }))
}).pipe(Effect.withSpan("migrate"))
