import { Effect, type Exit } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { formatPhone } from "../../src/domain/phone.ts"
import { Api } from "../../src/schema/api.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { ok } from "../../src/schema/envelope.ts"
import { sqlDefects } from "../edge/defects.ts"
import { Visitors } from "../edge/visitors.ts"
import { recordSignIn, refusalOf } from "../observability/metrics.ts"
import { Compliance } from "../protection/Compliance.ts"
import { Identity, type Client } from "./Identity.ts"
import { Users } from "./Users.ts"

/**
 * Who is calling, for throttling and the session record (the edge has resolved the address behind trusted
 * proxies), with the browser's visitor id when `visitors` is given.
 */
export const clientOf = (request: HttpServerRequest.HttpServerRequest, visitors?: Visitors["Service"]): Client => ({
  ip: request.remoteAddress._tag === "Some" ? request.remoteAddress.value : undefined,
  userAgent: request.headers["user-agent"],
  device: visitors?.idOf(request)
})

/** A sign-in's outcome for the metrics: in, refused (wrong details, a blocked account…), made to wait, or failed on our side. */
const signInResult = (exit: Exit.Exit<unknown, unknown>) => {
  const refusal = refusalOf(exit)
  if (refusal === undefined) return "ok"
  if (refusal === "RateLimited") return "throttled"
  return refusal === "internal" || refusal === "interrupted" ? "error" : "refused"
}

export const IdentityHandlers = HttpApiBuilder.group(Api, "identity", Effect.fn(function*(handlers) {
  const identity = yield* Identity
  const compliance = yield* Compliance
  const visitors = yield* Visitors
  return handlers.handleAll(sqlDefects(handlers, {
    signUp: ({ payload, request }) =>
      Effect.gen(function*() {
        // A state the operator does not serve is refused before anything is stored.
        yield* compliance.admitSignUp(payload.region, request.headers)
        const mobileNo = yield* identity.signUp(payload, clientOf(request, visitors))
        return ok({ mobile_no: mobileNo }, `We have sent a 4-digit code to ${formatPhone(mobileNo)}`)
      }),
    verifyOtp: ({ payload, request }) =>
      Effect.map(identity.verifyOtp(payload, clientOf(request, visitors)), ({ token, user }) => ok(user, "Your number is verified. Welcome to Khel!", token)),
    resendOtp: ({ payload, request }) =>
      Effect.map(identity.resendOtp(payload, clientOf(request, visitors)), (mobileNo) => ok({ mobile_no: mobileNo }, `A new code is on its way to ${formatPhone(mobileNo)}`)),
    login: ({ payload, request }) =>
      Effect.map(identity.login(payload, clientOf(request, visitors)), ({ token, user }) => ok(user, "Logged In", token)).pipe(
        Effect.onExit((exit) => recordSignIn(signInResult(exit)))
      ),
    forgotPassword: ({ payload, request }) =>
      "otp" in payload
        ? Effect.as(identity.resetPassword(payload, clientOf(request, visitors)), ok(null, "Password reset. Please log in with your new password."))
        : Effect.map(identity.forgotPassword(payload, clientOf(request, visitors)), (mobileNo) =>
          ok({ mobile_no: mobileNo }, `If ${formatPhone(mobileNo)} is registered, a 4-digit code is on its way to it.`))
  }))
}))

export const SessionHandlers = HttpApiBuilder.group(Api, "session", Effect.fn(function*(handlers) {
  const identity = yield* Identity
  const visitors = yield* Visitors
  return handlers.handleAll(sqlDefects(handlers, {
    changePassword: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const token = yield* identity.changePassword(user, payload, clientOf(request, visitors))
        return ok(null, "Password Changed", token)
      }),
    logout: () =>
      Effect.gen(function*() {
        yield* identity.logout(yield* CurrentUser)
        return ok(null, "Logged Out")
      })
  }))
}))

export const UserHandlers = HttpApiBuilder.group(Api, "user", Effect.fn(function*(handlers) {
  const users = yield* Users
  return handlers.handleAll(sqlDefects(handlers, {
    getUserData: () =>
      Effect.gen(function*() {
        const current = yield* CurrentUser
        return ok(yield* users.view(current.id))
      })
  }))
}))
