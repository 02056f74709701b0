import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
/** base64url, as a browser's `PushSubscription.toJSON()` gives its keys. */
const Base64Url = (max: number) => Text(max).check(Schema.isPattern(/^[A-Za-z0-9_-]+={0,2}$/))

/** What a push carries (encrypted end to end): the notification the service worker shows (src/sw.ts). */
export const PushMessage = Schema.Struct({
  kind: Schema.Literals(["deposit.approved", "withdrawal.paid", "bet.won", "match.starting"]),
  title: Schema.String,
  body: Schema.String,
  /** The page a tap opens: a path of this site. */
  url: Schema.String,
  /** A second notification with the same tag replaces the first. */
  tag: Schema.String
})
export type PushMessage = typeof PushMessage.Type

/** The server's VAPID public key: the browser subscribes with it (`applicationServerKey`). */
export const PushKey = Schema.Struct({ publicKey: Schema.String })
export type PushKey = typeof PushKey.Type

/** A browser's subscription, as `PushSubscription.toJSON()` gives it. */
export const PushSubscriptionPayload = Schema.Struct({
  endpoint: Text(1000),
  keys: Schema.Struct({ p256dh: Base64Url(200), auth: Base64Url(100) })
})
export type PushSubscriptionPayload = typeof PushSubscriptionPayload.Type

export const PushEndpointPayload = Schema.Struct({ endpoint: Text(1000) })
export type PushEndpointPayload = typeof PushEndpointPayload.Type

/** A signed-in player's notifications on this browser (Authentication is added here). */
export class PushApi extends HttpApiGroup.make("push")
  .add(
    HttpApiEndpoint.get("pushKey", "/push-key", { success: Envelope(PushKey) })
      .annotate(Reasons, ["SessionEnded", "Unavailable"]),
    HttpApiEndpoint.post("subscribePush", "/push-subscription", { payload: PushSubscriptionPayload, success: Envelope(Schema.Null) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Unavailable"]),
    HttpApiEndpoint.post("unsubscribePush", "/push-subscription/remove", { payload: PushEndpointPayload, success: Envelope(Schema.Null) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded"])
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
