import { Clock, Context, Effect, Layer, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { ok, refuse } from "../src/schema/envelope.ts"
import { ServerConfig } from "./config.ts"
import { failureResponse, toFailureResponse } from "./edge/envelopes.ts"

/**
 * The server's clock. It is Effect's `Clock`, so services read the time with
 * `Clock.currentTimeMillis` (or take the clock once when their layer is
 * built). In production it is the machine's clock. With TEST_CLOCK on it is
 * the machine's clock plus an offset that only grows, moved by the test-only
 * route below, and it can be frozen so a test reads exactly the instant it
 * set: tests step over 24 hours, 7 days or a month, to the millisecond,
 * without sleeping. Sleeping itself (delays, retries) still runs on real time.
 */
export class ClockControl extends Context.Service<ClockControl, {
  /** Moves the clock forward and returns the time it now reads. */
  advance(millis: number): Effect.Effect<Date>
  /** Stops the clock where it is (it moves only when advanced) or lets it run on from there. */
  freeze(frozen: boolean): Effect.Effect<Date>
  readonly status: Effect.Effect<{ readonly now: Date; readonly offsetMillis: number; readonly frozen: boolean }>
}>()("khel/ClockControl") {}

const movable = (real: Clock.Clock) => {
  let offset = 0
  let frozenAt: number | undefined
  const nowMillis = () => frozenAt ?? real.currentTimeMillisUnsafe() + offset
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: nowMillis,
    currentTimeMillis: Effect.sync(nowMillis),
    currentTimeNanosUnsafe: () => BigInt(nowMillis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(nowMillis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  const status = Effect.sync(() => ({ now: new Date(nowMillis()), offsetMillis: nowMillis() - real.currentTimeMillisUnsafe(), frozen: frozenAt !== undefined }))
  const control = ClockControl.of({
    advance: (millis) =>
      Effect.sync(() => {
        if (frozenAt === undefined) offset += millis
        else frozenAt += millis
        return new Date(nowMillis())
      }),
    freeze: (frozen) =>
      Effect.sync(() => {
        if (frozen && frozenAt === undefined) frozenAt = nowMillis()
        if (!frozen && frozenAt !== undefined) {
          offset = frozenAt - real.currentTimeMillisUnsafe()
          frozenAt = undefined
        }
        return new Date(nowMillis())
      }),
    status
  })
  return { clock, control }
}

/** The movable clock (and its control) when TEST_CLOCK is on; nothing otherwise, so the default clock serves. */
export const ServerClockLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  if (!config.testClock) return Layer.empty
  const { clock, control } = movable(yield* Clock.Clock)
  return Layer.mergeAll(Layer.succeed(Clock.Clock, clock), Layer.succeed(ClockControl, control))
}))

const ClockPayload = Schema.Struct({
  seconds: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  frozen: Schema.optionalKey(Schema.Boolean)
})
const decodeClockPayload = Schema.decodeUnknownEffect(ClockPayload)

const clockRoute = (write: boolean) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const found = yield* Effect.serviceOption(ClockControl)
    if (found._tag === "None") return failureResponse(404, "There is no such path.")
    const control = found.value
    if (write) {
      const json = yield* request.json.pipe(Effect.mapError(() => refuse("InvalidInput", "The body must be JSON: { \"seconds\": 86400, \"frozen\": true }")))
      const change = yield* decodeClockPayload(json).pipe(
        Effect.mapError(() => refuse("InvalidInput", "seconds must be 0 or more (the clock only moves forward); frozen is true or false"))
      )
      if (change.frozen !== undefined) yield* control.freeze(change.frozen)
      if (change.seconds !== undefined) yield* control.advance(Math.round(change.seconds * 1000))
    }
    const status = yield* control.status
    return HttpServerResponse.jsonUnsafe(ok({ now: status.now.toISOString(), offsetSeconds: status.offsetMillis / 1000, frozen: status.frozen }), {
      headers: { "cache-control": "no-store" }
    })
  }).pipe(Effect.catchCause(toFailureResponse))

/**
 * `GET /api/v1/test/clock` reads the clock; `POST /api/v1/test/clock` with
 * `{ seconds?, frozen? }` freezes or releases it, then moves it forward. Both
 * answer `{ now, offsetSeconds, frozen }`. Mounted only with TEST_CLOCK on
 * (never in production), outside the API contract.
 */
export const TestClockRoutes = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  if (!config.testClock) return Layer.empty
  return Layer.mergeAll(
    HttpRouter.add("GET", "/api/v1/test/clock", clockRoute(false)),
    HttpRouter.add("POST", "/api/v1/test/clock", clockRoute(true))
  )
}))
