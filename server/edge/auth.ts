import { Effect, Layer, Redacted } from "effect"
import { Authentication, CurrentUser, OperatorOnly } from "../../src/schema/middleware.ts"
import { forbidden, unauthorized } from "../../src/schema/envelope.ts"
import { isOperatorRole } from "../../src/schema/user.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Activity } from "../protection/Activity.ts"

/** Bearer token -> CurrentUser; anything else is HTTP 401 (the client signs in again). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const sessions = yield* Sessions
    const activity = yield* Activity
    return Authentication.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const user = yield* sessions.authenticate(Redacted.value(credential)).pipe(Effect.orDie)
          if (!user) return yield* unauthorized()
          // A player's requests make up their sessions of play (reality checks, time spent); tracking never fails a request.
          if (!isOperatorRole(user.role)) yield* activity.seen(user.id).pipe(Effect.catchCause((cause) => Effect.logWarning("activity not recorded", cause)))
          return yield* Effect.provideService(httpEffect, CurrentUser, user)
        })
    })
  })
)

/** The operator's groups (admin desk, casino admin, market results and prices): a player is 403. */
export const OperatorOnlyLive = Layer.succeed(OperatorOnly, (httpEffect) =>
  Effect.gen(function*() {
    const user = yield* CurrentUser
    if (!isOperatorRole(user.role)) return yield* forbidden("This is for operators only.")
    return yield* httpEffect
  })
)
