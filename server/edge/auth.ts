import { Effect, Layer, Redacted } from "effect"
import { Authentication, CurrentUser } from "../../src/schema/middleware.ts"
import { unauthorized } from "../../src/schema/envelope.ts"
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
