import { Effect, Layer } from "effect"
import { isStaffRole } from "../../src/domain/staff.ts"
import { SocketAuthenticator } from "../realtime/Realtime.ts"
import { IdentityHandlers, SessionHandlers, UserHandlers } from "./http.ts"
import { Identity } from "./Identity.ts"
import { Otp } from "./Otp.ts"
import { Passwords } from "./Passwords.ts"
import { Sessions } from "./Sessions.ts"
import { Sms } from "./Sms.ts"
import { Throttle } from "./Throttle.ts"
import { Users } from "./Users.ts"

/**
 * Bearer sessions, and the sockets' way to read them. Below realtime and the
 * ledger (sockets authenticate with a session), so it is built apart from the
 * rest of identity.
 */
export const SessionsLive = Layer.effect(
  SocketAuthenticator,
  Effect.gen(function*() {
    const sessions = yield* Sessions
    return {
      authenticate: (token: string) =>
        Effect.runPromise(Effect.gen(function*() {
          const player = yield* sessions.authenticate(token)
          if (player) return { userId: player.id, sessionId: player.sessionId }
          // A staff member's desk: its socket hears the queues (server/realtime/Realtime.ts).
          const staff = yield* sessions.authenticate(token, "desk")
          return staff && isStaffRole(staff.role) ? { userId: staff.id, sessionId: staff.sessionId, desk: true } : undefined
        }).pipe(Effect.orElseSucceed(() => undefined)))
    }
  })
).pipe(Layer.provideMerge(Sessions.layer))

/** Sign-up with a code by SMS, sign-in, password changes and the player's own record, on top of the ledger and sessions. */
export const IdentityServicesLive = Identity.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Otp.layer, Throttle.layer, Users.layer, Passwords.layer)),
  Layer.provideMerge(Sms.layer)
)

/** The HTTP groups of src/schema/identity.ts: sign-in, the session, the user. */
export const IdentityHandlersLive = Layer.mergeAll(IdentityHandlers, SessionHandlers, UserHandlers)
