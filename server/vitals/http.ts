import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { RateLimiterMemory } from "rate-limiter-flexible"
import { Api } from "../../src/schema/api.ts"
import { fail, ok, tooMany } from "../../src/schema/envelope.ts"
import { BeaconLimits, VITALS_MAX_BYTES } from "../../src/schema/vitals.ts"
import { Vitals } from "./Vitals.ts"

/**
 * Beacons per address per minute. A page visit sends one to three; many players share an address
 * behind a mobile carrier's NAT, so the limit only stops a flood, in this process's memory (the
 * figures are statistics, not money: a server that restarts may take a few more).
 */
export const BEACONS_PER_MINUTE = 120

export const BeaconLimitsLive = Layer.sync(BeaconLimits, () => {
  const limiter = new RateLimiterMemory({ points: BEACONS_PER_MINUTE, duration: 60 })
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // sendBeacon and fetch always say how long the body is; anything longer is refused before it is read.
      const length = Number(request.headers["content-length"])
      if (!Number.isInteger(length) || length > VITALS_MAX_BYTES) return yield* fail(413, `A vitals report is at most ${VITALS_MAX_BYTES} bytes.`)
      const address = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
      const allowed = yield* Effect.promise(() => limiter.consume(address).then(() => true, () => false))
      if (!allowed) return yield* tooMany("Too many vitals reports from this address. Please try again in a minute.")
      return yield* Effect.provideService(httpEffect, HttpIncomingMessage.MaxBodySize, ByteSize.bytes(VITALS_MAX_BYTES))
    })
})

export const VitalsHandlers = HttpApiBuilder.group(Api, "vitals", Effect.fn(function*(handlers) {
  const vitals = yield* Vitals
  return handlers.handleAll({
    reportVitals: ({ payload }) => Effect.map(Effect.orDie(vitals.record(payload)), () => ok(null, "Recorded"))
  })
}))
