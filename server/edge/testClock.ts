import { Effect, Layer, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { ClockControl } from "../clock.ts"
import { ServerConfig } from "../config.ts"
import { failureResponse, toFailureResponse } from "./envelopes.ts"

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
