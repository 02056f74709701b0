import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "effect/http-api"
import { ApiError, Envelope } from "./envelope.ts"

/** The Core Web Vitals the site reports from real visits (web-vitals), and the time to first byte. */
export const VitalName = Schema.Literals(["LCP", "INP", "CLS", "TTFB"])
export type VitalName = typeof VitalName.Type

/** Device classes, by viewport width as the site lays itself out: below 768 px, below 1024 px, wider. */
export const DeviceClass = Schema.Literals(["mobile", "tablet", "desktop"])
export type DeviceClass = typeof DeviceClass.Type

/**
 * One measurement. `value` is milliseconds (CLS: the unitless layout-shift
 * score); a minute is far beyond anything real, so larger is refused.
 */
export const Vital = Schema.Struct({
  name: VitalName,
  value: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(60_000)),
  rating: Schema.Literals(["good", "needs-improvement", "poor"])
})
export type Vital = typeof Vital.Type

/** The route pattern a page belongs to: its first path segment ("/", "/sports", "/event"), never ids or queries. */
export const VitalRoute = Schema.String.check(Schema.isPattern(/^\/[a-z0-9&-]{0,40}$/))

/** One page visit's batch: at most one of each vital per report, a few reports per visit. */
export const VitalsPayload = Schema.Struct({
  route: VitalRoute,
  device: DeviceClass,
  /** The Network Information API's effective type where the browser has it. */
  connection: Schema.optionalKey(Schema.Literals(["slow-2g", "2g", "3g", "4g"])),
  vitals: Schema.Array(Vital).check(Schema.isMinLength(1), Schema.isMaxLength(8))
})
export type VitalsPayload = typeof VitalsPayload.Type

/** Largest beacon body accepted, in bytes: a full batch is about 400. */
export const VITALS_MAX_BYTES = 2048

/**
 * A beacon from a page the site served (its signed visitor cookie, else 403): its body capped at
 * `VITALS_MAX_BYTES` (413), its rate limited per address and per visitor (429).
 */
export class BeaconLimits extends HttpApiMiddleware.Service<BeaconLimits>()("khel/BeaconLimits", {
  error: ApiError
}) {}

/** Real-user vitals: the site's beacon (no session; a visitor cookie from one of the site's pages). */
export class VitalsApi extends HttpApiGroup.make("vitals")
  .add(HttpApiEndpoint.post("reportVitals", "/vitals", { payload: VitalsPayload, success: Envelope(Schema.Null) }))
  .middleware(BeaconLimits)
  .prefix("/api/v1")
{}
