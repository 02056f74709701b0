import { Effect } from "effect"
import type { SqlError } from "effect/sql"

/**
 * At the HTTP edge a database failure is unexpected: it becomes a defect,
 * which the Envelopes middleware logs and answers with a generic 500.
 */
export const sqlDefect = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError.SqlError>, R> =>
  Effect.catchTag(effect as Effect.Effect<A, E | SqlError.SqlError, R>, "SqlError", (error) => Effect.die(error)) as Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>
