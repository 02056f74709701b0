import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import type { HttpServerRequest } from "effect/http"
import { createHash } from "node:crypto"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows } from "../db/rows.ts"

/** The request's `Idempotency-Key` header, checked for shape. */
export const idempotencyKeyOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const key = request.headers["idempotency-key"]
    if (key === undefined || key === "") return undefined
    if (key.length > 100 || !/^[\w.:-]+$/.test(key)) return yield* refuse("InvalidInput", "Idempotency-Key must be at most 100 letters, digits, '-', '_', '.' or ':'")
    return key
  })

const fingerprint = (request: unknown) => createHash("sha256").update(JSON.stringify(request ?? null)).digest("hex")

/** What `idempotency_record` (migrations 0081, 0200) returns: the key claimed now, or what its earlier request stored. */
export const ClaimRow = Schema.Struct({ claimed: Schema.Boolean, storedHash: Schema.NullOr(Schema.String), storedResponse: Schema.Unknown })
export type ClaimRow = typeof ClaimRow.Type

/**
 * For a write of one statement that carries the key (see `Idempotency.runCarried`): `stored` is a query of at most
 * one `ClaimRow` for the write's read (what an earlier request with the key stored; no row when the key is new);
 * `replay` reads such a row (the earlier response, or the 409); `record` is a query of one `ClaimRow` to put first
 * in the write's statement (`WITH claim AS MATERIALIZED (…)`): it records the key with the response, or, when a
 * request with the key committed since the read, gives what that one stored (then the statement must write
 * nothing else, and the write replays it).
 */
export interface CarriedKey<A> {
  readonly stored: Statement.Fragment
  readonly replay: (row: ClaimRow) => Effect.Effect<Option.Option<A>, ApiError>
  readonly record: (response: A) => Effect.Effect<Statement.Fragment>
}

/** A money-moving request under its owner's Idempotency-Key (none: the write just runs). */
export interface KeyedRequest<A, I> {
  readonly owner: string
  readonly key: string | undefined
  readonly request: unknown
  /** How the stored response is read back on a replay. */
  readonly response: Schema.Codec<A, I>
}

/**
 * Exactly-once writes for money-moving requests. With a key, the write runs
 * in one transaction together with the record of its response: a replay with
 * the same key and request gets that response and moves nothing; the same
 * key with another request is refused. A write that fails leaves no record,
 * so it may be retried.
 */
export class Idempotency extends Context.Service<Idempotency, {
  run<A, I, E, R>(
    options: KeyedRequest<A, I>,
    write: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R>
  /**
   * Like `run`, for a hot path whose write is one statement (atomic on its own, no transaction): the key's record
   * rides in it with the response (see `CarriedKey`), so it is written, or rolled back, with everything else.
   */
  runCarried<A, I, E, R>(
    options: KeyedRequest<A, I>,
    write: (key: CarriedKey<A>) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R>
}>()("khel/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      /** The key claimed for the write (`response` null: the write stores it later) or recorded with its response. */
      const recordOf = (owner: string, key: string, hash: string, response: string | null) =>
        sql`SELECT claimed, stored_hash, stored_response FROM idempotency_record(${owner}, ${key}, ${hash}, ${response}::jsonb)`

      /** The earlier request's response, or the 409 when that request was another; nothing when claimed now. */
      const replayOf = <A, I>(response: Schema.Codec<A, I>, hash: string) => (row: ClaimRow) =>
        Effect.gen(function*() {
          if (row.claimed) return Option.none<A>()
          if (row.storedHash !== hash) return yield* refuse("Conflict", "This Idempotency-Key was already used for a different request.")
          return Option.some(yield* Schema.decodeUnknownEffect(response)(row.storedResponse).pipe(Effect.orDie))
        })

      /** The response as the key's record stores it (JSON). */
      const encodedResponse = <A, I>(response: Schema.Codec<A, I>, result: A) => Schema.encodeEffect(response)(result).pipe(Effect.orDie, Effect.map((encoded) => JSON.stringify(encoded)))

      const respondOf = <A, I>(owner: string, key: string | undefined, response: Schema.Codec<A, I>) => (result: A) =>
        Effect.gen(function*() {
          if (key === undefined) return sql`SELECT NULL`
          return sql`UPDATE idempotency_keys SET response = ${yield* encodedResponse(response, result)}::jsonb WHERE user_id = ${owner} AND key = ${key}`
        })

      const runCarried = <A, I, E, R>(
        options: KeyedRequest<A, I>,
        write: (key: CarriedKey<A>) => Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R> => {
        const { owner, key, response } = options
        const hash = fingerprint(options.request)
        return write({
          stored: key === undefined
            ? sql`SELECT false AS claimed, NULL::text AS stored_hash, NULL::jsonb AS stored_response WHERE false`
            : sql`SELECT false AS claimed, request_hash AS stored_hash, response AS stored_response FROM idempotency_keys WHERE user_id = ${owner} AND key = ${key}`,
          replay: replayOf(response, hash),
          record: (result) =>
            Effect.gen(function*() {
              if (key === undefined) return sql`SELECT true AS claimed, NULL::text AS stored_hash, NULL::jsonb AS stored_response`
              return recordOf(owner, key, hash, yield* encodedResponse(response, result))
            })
        })
      }

      const run = <A, I, E, R>(
        options: KeyedRequest<A, I>,
        write: Effect.Effect<A, E, R>
      ): Effect.Effect<A, E | ApiError | SqlError.SqlError, R> =>
        sql.withTransaction(Effect.gen(function*() {
          if (options.key === undefined) return yield* write
          const hash = fingerprint(options.request)
          const [claim] = yield* recordOf(options.owner, options.key, hash, null).pipe(decodeRows(ClaimRow))
          const replayed = yield* replayOf(options.response, hash)(claim!)
          if (Option.isSome(replayed)) return replayed.value
          const result = yield* write
          yield* yield* respondOf(options.owner, options.key, options.response)(result)
          return result
        }))

      return Idempotency.of({ run, runCarried })
    })
  )
}
