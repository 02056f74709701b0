import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { HttpServerRequest } from "effect/http"
import { createHash } from "node:crypto"
import { type ApiError, badRequest, conflict } from "../../src/schema/envelope.ts"

/** The request's `Idempotency-Key` header, checked for shape. */
export const idempotencyKeyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const key = request.headers["idempotency-key"]
    if (key === undefined || key === "") return undefined
    if (key.length > 100 || !/^[\w.:-]+$/.test(key)) return yield* badRequest("Idempotency-Key must be at most 100 letters, digits, '-', '_', '.' or ':'")
    return key
  })

const fingerprint = (request: unknown) => createHash("sha256").update(JSON.stringify(request ?? null)).digest("hex")

/**
 * Exactly-once writes for money-moving requests. With a key, the write runs
 * in one transaction together with the record of its response: a replay with
 * the same key and request gets that response and moves nothing; the same
 * key with another request is refused. A write that fails leaves no record,
 * so it may be retried.
 */
export class Idempotency extends Context.Service<Idempotency, {
  run<A, I, E, R>(
    options: {
      readonly owner: string
      readonly key: string | undefined
      readonly request: unknown
      /** How the stored response is read back on a replay. */
      readonly response: Schema.Codec<A, I>
    },
    write: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R>
}>()("khel/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const run = <A, I, E, R>(
        options: { readonly owner: string; readonly key: string | undefined; readonly request: unknown; readonly response: Schema.Codec<A, I> },
        write: Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R> =>
        sql.withTransaction(Effect.gen(function*() {
          if (options.key === undefined) return yield* write
          const hash = fingerprint(options.request)
          // A concurrent request with the same key waits here until the first commits or rolls back.
          const claimed = yield* sql`
            INSERT INTO idempotency_keys (user_id, key, request_hash, status, response)
            VALUES (${options.owner}, ${options.key}, ${hash}, 0, 'null'::jsonb)
            ON CONFLICT (user_id, key) DO NOTHING
            RETURNING key
          `
          if (claimed.length === 0) {
            const [previous] = yield* sql<{ requestHash: string; response: unknown }>`
              SELECT request_hash, response FROM idempotency_keys WHERE user_id = ${options.owner} AND key = ${options.key}
            `
            if (previous!.requestHash !== hash) {
              return yield* conflict("This Idempotency-Key was already used for a different request.")
            }
            return yield* Schema.decodeUnknownEffect(options.response)(previous!.response).pipe(Effect.orDie)
          }
          const result = yield* write
          const encoded = yield* Schema.encodeEffect(options.response)(result).pipe(Effect.orDie)
          yield* sql`
            UPDATE idempotency_keys SET status = 200, response = ${JSON.stringify(encoded)}::jsonb
             WHERE user_id = ${options.owner} AND key = ${options.key}
          `
          return result
        }))

      return Idempotency.of({ run })
    })
  )
}
