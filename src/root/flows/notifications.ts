import { Effect } from "effect"
import { fromPromise } from "xstate"
import { NOTIFICATIONS, notificationsMachine, type PushStatus } from "../../machines/notifications.machine.ts"
import type { Failure } from "../../schema/errors.ts"
import { rejectCall } from "../../schema/failures.ts"
import { PushApi } from "../../schema/push.ts"
import { Api } from "../../services/api.ts"
import { noticeStore } from "../../services/noticeStore.ts"
import { currentSubscription, ownerOf, payloadOf, setOwner, supportsPush, workerReady } from "../../services/webPush.ts"
import { data, failures, runTask, task, toast } from "../bridge.ts"

const push = PushApi.endpoints

const failure = (message: string, reason: Failure["reason"] = "Refused"): Failure => ({ code: 0, message, reason })

/** The server keeps this browser's subscription for the player's session. */
const store = (subscription: PushSubscription) =>
  failures(Api.use((api) => api.call(push.subscribePush, { payload: payloadOf(subscription) })))

/**
 * Where this browser stands: no worker or no Web Push; refused; subscribed for this player (stored again for
 * this session, which may be new); or not. A subscription another player turned on here is dropped.
 */
const statusHere = async (userId: string, signal: AbortSignal): Promise<PushStatus> => {
  if (!supportsPush()) return "unsupported"
  const subscription = await currentSubscription()
  if (Notification.permission === "denied") return "blocked"
  if (!subscription) return "off"
  if (Notification.permission === "granted" && ownerOf() === userId) {
    await runTask(store(subscription), signal)
    return "on"
  }
  await subscription.unsubscribe()
  setOwner(undefined)
  return "off"
}

const status = fromPromise<PushStatus, { userId: string }>(({ input, signal }) => statusHere(input.userId, signal).catch(rejectCall(signal)))

/** Asks the browser, subscribes with the server's key, and has the server keep the subscription. */
const enable = task<void, { userId: string }>(({ userId }: { userId: string }) =>
  Effect.gen(function*() {
    const permission = yield* Effect.promise(() => Notification.requestPermission())
    if (permission === "denied") return yield* Effect.fail(failure(NOTIFICATIONS.blocked.message, "NotificationsBlocked"))
    if (permission !== "granted") return yield* Effect.fail(failure("Notifications were not turned on."))
    const { publicKey } = yield* data(Api.use((api) => api.call(push.pushKey, {})))
    const registration = yield* Effect.promise(workerReady)
    const subscription = yield* Effect.tryPromise({
      try: () => registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }),
      catch: () => failure("This browser could not turn notifications on. Try again later.")
    })
    yield* store(subscription)
    setOwner(userId)
  })
)

/** The server forgets the subscription, then the browser drops it. */
const disable = task<void, { userId: string }>(() =>
  Effect.gen(function*() {
    const subscription = yield* Effect.promise(currentSubscription)
    if (subscription) {
      yield* failures(Api.use((api) => api.call(push.unsubscribePush, { payload: { endpoint: subscription.endpoint } })))
      yield* Effect.promise(() => subscription.unsubscribe())
    }
    setOwner(undefined)
  })
)

export default notificationsMachine.provide({
  actors: { status, enable, disable },
  actions: {
    notifyOn: () => noticeStore.show("success", NOTIFICATIONS.on.message, NOTIFICATIONS.on.subMessage),
    notifyOff: () => noticeStore.show("success", NOTIFICATIONS.off.message),
    notifyBlocked: () => noticeStore.show("warning", NOTIFICATIONS.blocked.message, NOTIFICATIONS.blocked.subMessage),
    warn: toast("warning")
  }
})
