import { Effect, Layer, Redacted } from "effect"
import { Authentication, CurrentUser, OperatorOnly } from "../../src/schema/middleware.ts"
import { forbidden, unauthorized } from "../../src/schema/envelope.ts"
import { isOperatorRole } from "../../src/schema/user.ts"
import { Sessions } from "../identity/Sessions.ts"

/** Bearer token -> CurrentUser; anything else is HTTP 401 (the client signs in again). */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const sessions = yield* Sessions
    return Authentication.of({
      bearer: (httpEffect, { credential }) =>
        Effect.gen(function*() {
          const user = yield* sessions.authenticate(Redacted.value(credential)).pipe(Effect.orDie)
          if (!user) return yield* unauthorized()
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
