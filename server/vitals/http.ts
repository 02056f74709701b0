import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { RateLimiterMemory } from "rate-limiter-flexible"
import { Api } from "../../src/schema/api.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { BeaconLimits, VITALS_MAX_BYTES } from "../../src/schema/vitals.ts"
import { Visitors } from "../edge/visitors.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { Vitals } from "./Vitals.ts"

/**
 * Beacons per address per minute. A page visit sends one to three; many players share an address
 * behind a mobile carrier's NAT, so the limit only stops a flood, in this process's memory (the
 * figures are statistics, not money: a server that restarts may take a few more).
 */
export const BEACONS_PER_MINUTE = 120

/** Beacons per visitor per minute, counted by every server alike: a page visit sends one to three. */
export const BEACONS_PER_VISITOR_PER_MINUTE = 20

export const NOT_OUR_PAGE = "Vitals are taken only from pages this site served."

/**
 * A beacon is taken from a page this site served: it carries the signed
 * visitor cookie the page came with (server/edge/visitors.ts), else 403.
 */
export const BeaconLimitsLive = Layer.effect(BeaconLimits, Effect.gen(function*() {
  const visitors = yield* Visitors
  const perVisitor = (yield* RateLimits).make({ name: "vitals-visitor", points: BEACONS_PER_VISITOR_PER_MINUTE, seconds: 60 })
  const limiter = new RateLimiterMemory({ points: BEACONS_PER_MINUTE, duration: 60 })
  return (httpEffect) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // sendBeacon and fetch always say how long the body is; anything longer is refused before it is read.
      const length = Number(request.headers["content-length"])
      if (!Number.isInteger(length) || length > VITALS_MAX_BYTES) return yield* refuse("PayloadTooLarge", `A vitals report is at most ${VITALS_MAX_BYTES} bytes.`)
      const address = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
      const allowed = yield* Effect.promise(() => limiter.consume(address).then(() => true, () => false))
      if (!allowed) return yield* refuse("RateLimited", "Too many vitals reports from this address. Please try again in a minute.")
      const visitor = visitors.idOf(request)
      if (visitor === undefined) return yield* refuse("Forbidden", NOT_OUR_PAGE)
      if (!(yield* perVisitor.take(visitor)).allowed) return yield* refuse("RateLimited", "Too many vitals reports from this browser. Please try again in a minute.")
      return yield* Effect.provideService(httpEffect, HttpIncomingMessage.MaxBodySize, ByteSize.bytes(VITALS_MAX_BYTES))
    })
}))

export const VitalsHandlers = HttpApiBuilder.group(Api, "vitals", Effect.fn(function*(handlers) {
  const vitals = yield* Vitals
  const visitors = yield* Visitors
  return handlers.handleAll({
    reportVitals: ({ payload, request }) =>
      Effect.gen(function*() {
        // BeaconLimits let it through with a valid visitor cookie.
        const visitor = visitors.idOf(request)
        if (visitor === undefined) return yield* refuse("Forbidden", NOT_OUR_PAGE)
        yield* Effect.orDie(vitals.record(payload, visitor))
        return ok(null, "Recorded")
      })
  })
}))
