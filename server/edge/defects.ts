import { Effect } from "effect"
import type { HttpApiBuilder, HttpApiEndpoint } from "effect/http-api"
import type { SqlError } from "effect/sql"

/**
 * At the HTTP edge a database failure is unexpected: it becomes a defect,
 * which the Envelopes middleware logs and answers with a generic 500.
 */
export const sqlDefect = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError.SqlError>, R> =>
  Effect.catchTag(effect as Effect.Effect<A, E | SqlError.SqlError, R>, "SqlError", (error) => Effect.die(error)) as Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>

/** A group's handlers as written: each may also fail with SqlError. */
type Tolerant<Endpoints extends Record<string, HttpApiEndpoint.Constraint>> = {
  readonly [K in keyof Endpoints]?: HttpApiEndpoint.Handler<Endpoints[K], HttpApiEndpoint.MiddlewareError<Endpoints[K]> | SqlError.SqlError, unknown>
}

/** The same handlers with SqlError turned into a defect: what `handleAll` checks against the declared errors. */
type Defected<H> = {
  readonly [K in keyof H]: H[K] extends (request: infer Q) => Effect.Effect<infer A, infer E, infer R> ? (request: Q) => Effect.Effect<A, Exclude<E, SqlError.SqlError>, R>
    : never
}

/**
 * The one place a group's handlers turn SqlError into defects:
 * `handlers.handleAll(sqlDefects(handlers, { ... }))`. Services below keep
 * SqlError typed, so a retry or a unique violation mapped to Conflict still
 * sees it, and a transaction still rolls back before its handler answers.
 */
export const sqlDefects = <R, Endpoints extends Record<string, HttpApiEndpoint.Constraint>, Done extends keyof Endpoints, const H extends Tolerant<Omit<Endpoints, Done>>>(
  _handlers: HttpApiBuilder.Handlers<R, Endpoints, Done>,
  group: H
): Defected<H> =>
  Object.fromEntries(
    Object.entries(group).map(([name, handler]) => [name, (request: unknown) => sqlDefect((handler as (request: unknown) => Effect.Effect<unknown, unknown, unknown>)(request))])
  ) as Defected<H>
