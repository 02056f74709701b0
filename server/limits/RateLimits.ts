import { Context, Effect, Layer, Metric } from "effect"
import { createHash } from "node:crypto"
import pg from "pg"
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible"
import { ServerConfig } from "../config.ts"
import { Database } from "../db/database.ts"
import { rateLimitedBy } from "../observability/metrics.ts"

/** A counter: at most `points` in `seconds`; past that, the key waits the rest of the window. */
export interface LimiterSpec {
  readonly name: string
  readonly points: number
  readonly seconds: number
}

export type Verdict =
  | { readonly allowed: true; readonly count: number }
  | { readonly allowed: false; readonly retryAfterSeconds: number }

export interface Limiter {
  /** Counts one event, or refuses it when the key is over its limit (a refused event still counts). */
  readonly take: (key: string) => Effect.Effect<Verdict>
  /** Seconds the key still has to wait, counting nothing (0: it may go on). */
  readonly waitFor: (key: string) => Effect.Effect<number>
  /** Counts one event without ever refusing; the count in the window. */
  readonly count: (key: string) => Effect.Effect<number>
  /** Makes the key wait `seconds`, whatever its count. */
  readonly block: (key: string, seconds: number) => Effect.Effect<void>
  /** Counts one failure; the one that reaches the limit (or any past it) makes the key wait a whole window. Whether it now waits. */
  readonly strike: (key: string) => Effect.Effect<boolean>
  readonly reset: (key: string) => Effect.Effect<void>
}

/** The table the PostgreSQL store keeps its counters in (migration 0050). */
const TABLE = "rate_limits"

/** Store keys are at most 255 characters; longer ones (never in practice) are hashed. */
const storeKey = (key: string) => (key.length <= 200 ? key : createHash("sha256").update(key).digest("hex"))

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/** A store failure is not the caller's fault: it becomes a defect (a logged 500), never a silent pass. */
const call = <A>(promise: () => Promise<A>) =>
  Effect.tryPromise({ try: promise, catch: (error) => error }).pipe(
    Effect.catch((error) => (error instanceof RateLimiterRes ? Effect.fail(error) : Effect.die(error)))
  )

/**
 * A limiter over a store; each refusal it makes (a `take` over the limit, a `waitFor` that makes the caller
 * wait) is counted in `khel_rate_limited_total` under the limit's name, a series that exists from the start.
 */
const wrap = (spec: LimiterSpec, limiter: RateLimiterAbstract, context: Context.Context<never>): Limiter => {
  const refused = rateLimitedBy({ limit: spec.name })
  refused.valueUnsafe(context)
  const take = (key: string) =>
    call(() => limiter.consume(storeKey(key))).pipe(
      Effect.map((res): Verdict => ({ allowed: true, count: res.consumedPoints })),
      Effect.catch((res) => Effect.as(Metric.update(refused, 1), { allowed: false, retryAfterSeconds: seconds(res.msBeforeNext) } satisfies Verdict))
    )
  const block = (key: string, secs: number) => call(() => limiter.block(storeKey(key), secs)).pipe(Effect.orDie, Effect.asVoid)
  return {
    take,
    waitFor: (key) =>
      call(() => limiter.get(storeKey(key))).pipe(
        Effect.orDie,
        Effect.map((res) => (res !== null && res.consumedPoints > spec.points && res.msBeforeNext > 0 ? seconds(res.msBeforeNext) : 0)),
        Effect.tap((wait) => (wait > 0 ? Metric.update(refused, 1) : Effect.void))
      ),
    count: (key) => call(() => limiter.penalty(storeKey(key))).pipe(Effect.orDie, Effect.map((res) => res.consumedPoints)),
    block,
    strike: (key) =>
      Effect.flatMap(take(key), (verdict) =>
        !verdict.allowed || verdict.count >= spec.points ? Effect.as(block(key, spec.seconds), true) : Effect.succeed(false)),
    reset: (key) => call(() => limiter.delete(storeKey(key))).pipe(Effect.orDie, Effect.asVoid)
  }
}

/**
 * Rate limits with rate-limiter-flexible. On PostgreSQL the counters live in
 * the database (its PostgreSQL store, through `pg`), so every server sees the
 * same counts; the embedded database has one server, which keeps them in
 * memory (its memory store). Limiters are made once, when a service is built.
 */
export class RateLimits extends Context.Service<RateLimits, {
  make(spec: LimiterSpec): Limiter
}>()("khel/RateLimits") {
  static readonly layer = Layer.effect(
    RateLimits,
    Effect.gen(function*() {
      const config = yield* ServerConfig
      const { engine } = yield* Database
      const context = yield* Effect.context<never>()
      if (engine !== "postgres" || !config.databaseUrl) {
        return RateLimits.of({
          make: (spec) =>
            wrap(spec, new RateLimiterMemory({ keyPrefix: spec.name, points: spec.points, duration: spec.seconds }), context)
        })
      }
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, application_name: "khel-limits" })
          // An idle connection that drops is replaced on the next query; it must not take the process down.
          pool.on("error", () => undefined)
          return pool
        }),
        (pool) => Effect.promise(() => pool.end().catch(() => undefined))
      )
      let first = true
      return RateLimits.of({
        make: (spec) => {
          // One limiter sweeps expired counters for the whole table, every few minutes.
          const clearExpiredByTimeout = first
          first = false
          return wrap(spec, new RateLimiterPostgres({
            storeClient: pool,
            storeType: "pool",
            tableName: TABLE,
            tableCreated: true,
            clearExpiredByTimeout,
            keyPrefix: spec.name,
            points: spec.points,
            duration: spec.seconds
          }), context)
        }
      })
    })
  )
}

/** "45 seconds", "3 minutes", "24 hours": how long to wait, for a person. */
export const waitText = (totalSeconds: number) => {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`
  if (totalSeconds < 60) return plural(Math.max(1, Math.ceil(totalSeconds)), "second")
  if (totalSeconds < 2 * 3600) return plural(Math.ceil(totalSeconds / 60), "minute")
  return plural(Math.ceil(totalSeconds / 3600), "hour")
}
