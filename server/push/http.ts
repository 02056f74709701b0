import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { sqlDefects } from "../edge/defects.ts"
import { Push, PUSH_MESSAGES } from "./Push.ts"

/** The player's notifications on a browser: the key to subscribe with, the subscription, its removal. */
export const PushHandlers = HttpApiBuilder.group(Api, "push", Effect.fn(function*(handlers) {
  const push = yield* Push
  return handlers.handleAll(sqlDefects(handlers, {
    pushKey: () => (push.publicKey ? Effect.succeed(ok({ publicKey: push.publicKey })) : Effect.fail(refuse("Unavailable", PUSH_MESSAGES.unavailable))),
    subscribePush: ({ payload }) =>
      Effect.gen(function*() {
        yield* push.subscribe(yield* CurrentUser, payload)
        return ok(null, "Notifications are on")
      }),
    unsubscribePush: ({ payload }) =>
      Effect.gen(function*() {
        yield* push.unsubscribe(yield* CurrentUser, payload.endpoint)
        return ok(null, "Notifications are off")
      })
  }))
}))
