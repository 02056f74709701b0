import { Context, Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { can, isStaffRole } from "../../src/domain/staff.ts"
import { Authentication, CurrentStaff, CurrentUser, Requires, StaffAuthentication } from "../../src/schema/middleware.ts"
import { refuse } from "../../src/schema/envelope.ts"
import { isOperatorRole } from "../../src/schema/user.ts"
import { Staff } from "../desk/Staff.ts"
import { clientOf } from "../identity/http.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Activity } from "../protection/Activity.ts"

const SESSION_ENDED = "Your session has ended. Please log in again."

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
          if (!user) return yield* refuse("SessionEnded", SESSION_ENDED)
          // A player's requests make up their sessions of play (reality checks, time spent); tracking never fails a request.
          if (!isOperatorRole(user.role)) yield* activity.seen(user.id).pipe(Effect.catchCause((cause) => Effect.logWarning("activity not recorded", cause)))
          return yield* Effect.provideService(httpEffect, CurrentUser, user)
        })
    })
  })
)

/** What a token that opens no desk endpoint is told (a player's, an agent's). */
export const NOT_STAFF = "This is for the operator's staff only."
/** What a staff member whose role lacks the endpoint's permission is told. */
export const NOT_PERMITTED = "Your role may not do this."

/**
 * The desk's endpoints (src/schema/middleware.ts `StaffAuthentication`): a desk
 * session of a staff role that has the permission the endpoint names. A
 * player's token, or anyone's on an endpoint that names no permission, is 403.
 */
export const StaffAuthenticationLive = Layer.effect(
  StaffAuthentication,
  Effect.gen(function*() {
    const staff = yield* Staff
    const sessions = yield* Sessions
    return StaffAuthentication.of({
      bearer: (httpEffect, { credential, endpoint }) =>
        Effect.gen(function*() {
          const token = Redacted.value(credential)
          const member = yield* staff.authenticate(token).pipe(Effect.orDie)
          if (!member) {
            // A player's (or an agent's) own session is alive but opens nothing here; anything else is no session.
            const player = yield* sessions.authenticate(token).pipe(Effect.orDie)
            return yield* player ? refuse("Forbidden", NOT_STAFF) : refuse("SessionEnded", SESSION_ENDED)
          }
          const required = Option.getOrUndefined(Context.getOption(endpoint.annotations, Requires))
          const allowed = required === "staff" ? isStaffRole(member.role) : required !== undefined && can(member.role, required)
          if (!allowed) return yield* refuse("Forbidden", NOT_PERMITTED)
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* Effect.provideService(httpEffect, CurrentStaff, { ...member, ip: clientOf(request).ip })
        })
    })
  })
)
