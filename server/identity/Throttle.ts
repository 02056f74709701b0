import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export const ACCOUNT_MAX_FAILURES = 5
export const ADDRESS_MAX_FAILURES = 20
export const THROTTLE_MINUTES = 15

/**
 * Failed sign-ins, counted over a sliding 15 minutes: 5 per account and 20
 * per address. Kept in the database so every server sees the same counts.
 */
export class Throttle extends Context.Service<Throttle, {
  /** Minutes until `key` may try again, or 0. */
  blockedFor(key: string, max: number): Effect.Effect<number, SqlError.SqlError>
  record(...keys: ReadonlyArray<string>): Effect.Effect<void, SqlError.SqlError>
  clear(key: string): Effect.Effect<void, SqlError.SqlError>
}>()("khel/Throttle") {
  static readonly layer = Layer.effect(
    Throttle,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const window = `${THROTTLE_MINUTES} minutes`

      const blockedFor = Effect.fn("Throttle.blockedFor")(function*(key: string, max: number) {
        const rows = yield* sql<{ at: Date }>`
          SELECT at FROM auth_failures WHERE key = ${key} AND at > now() - ${window}::interval ORDER BY at DESC LIMIT ${max}
        `
        if (rows.length < max) return 0
        const oldest = rows[rows.length - 1]!.at.getTime()
        return Math.max(1, Math.ceil((oldest + THROTTLE_MINUTES * 60_000 - Date.now()) / 60_000))
      })

      const record = Effect.fn("Throttle.record")(function*(...keys: ReadonlyArray<string>) {
        for (const key of keys) yield* sql`INSERT INTO auth_failures (key) VALUES (${key})`
        // Keep the table small: anything older than the window no longer counts.
        yield* sql`DELETE FROM auth_failures WHERE at < now() - interval '1 day'`
      })

      const clear = Effect.fn("Throttle.clear")(function*(key: string) {
        yield* sql`DELETE FROM auth_failures WHERE key = ${key}`
      })

      return Throttle.of({ blockedFor, record, clear })
    })
  )
}
