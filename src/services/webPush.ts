import type { PushSubscriptionPayload } from "../schema/push.ts"
import { local, read, write } from "./browserStorage.ts"

/**
 * This browser's push subscription, plain (the logout uses it without the
 * Effect runtime). A subscription belongs to the player who turned
 * notifications on (`pushOwner` in local storage): another player signing in
 * on the same browser does not inherit it.
 */
const OWNER = "pushOwner"

/** Whether this browser can have notifications at all (a service worker, Web Push and notifications). */
export const supportsPush = () =>
  typeof navigator !== "undefined" && "serviceWorker" in navigator && typeof PushManager !== "undefined" && typeof Notification !== "undefined"

/** The service worker's registration, once it is active (never, where no worker registers). */
export const workerReady = () => navigator.serviceWorker.ready

export const currentSubscription = async () => (await workerReady()).pushManager.getSubscription()

/** A subscription as the server takes it. */
export const payloadOf = (subscription: PushSubscription): PushSubscriptionPayload => {
  const json = subscription.toJSON()
  return { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" } }
}

export const ownerOf = () => read(local, OWNER) ?? undefined
export const setOwner = (userId: string | undefined) => write(local, OWNER, userId ?? null)

/** Drops this browser's subscription (a logout: the server removes its record with the session). */
export const forgetSubscription = async () => {
  setOwner(undefined)
  if (!supportsPush()) return
  const registration = await navigator.serviceWorker.getRegistration()
  const subscription = await registration?.pushManager.getSubscription()
  await subscription?.unsubscribe()
}
