import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { forbidden, ok } from "../../src/schema/envelope.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { isOperatorRole } from "../../src/schema/user.ts"
import { sqlDefect } from "../edge/defects.ts"
import { clientOf } from "../identity/http.ts"
import { Activity } from "./Activity.ts"
import type { Actor } from "./audit.ts"
import { Compliance } from "./Compliance.ts"
import { type Changed, Protection } from "./Protection.ts"

/** Players and credit players have protection; operators have no play to protect. */
const currentPlayer = Effect.gen(function*() {
  const user = yield* CurrentUser
  if (isOperatorRole(user.role)) return yield* forbidden("Player protection is for player accounts.")
  return user
})

const actorOf = (user: { readonly id: string }, request: HttpServerRequest.HttpServerRequest): Actor => ({ id: user.id, ip: clientOf(request).ip })

const answer = (changed: Changed) => ok(changed.state, changed.message)

export const ProtectionHandlers = HttpApiBuilder.group(Api, "protection", Effect.fn(function*(handlers) {
  const protection = yield* Protection
  const activity = yield* Activity
  return handlers.handleAll({
    protection: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* sqlDefect(protection.state(user.id)))
      }),
    setLimit: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.setLimit(user.id, payload, actorOf(user, request))))
      }),
    confirmLimit: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.confirmLimit(user.id, payload.kind, payload.period, actorOf(user, request))))
      }),
    setRealityCheck: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.setRealityCheck(user.id, payload.minutes, actorOf(user, request))))
      }),
    continueSession: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* sqlDefect(protection.continueSession(user.id)))
      }),
    timeOut: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.timeOut(user.id, payload.days, actorOf(user, request))))
      }),
    selfExclude: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.selfExclude(user.id, payload.months, actorOf(user, request))))
      }),
    requestReturn: ({ request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* sqlDefect(protection.requestReturn(user.id, actorOf(user, request))))
      }),
    activity: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* sqlDefect(activity.statement(user.id)))
      })
  })
}))

/** Operators only (the group's OperatorOnly middleware). */
export const ProtectionAdminHandlers = HttpApiBuilder.group(Api, "protectionAdmin", Effect.fn(function*(handlers) {
  const protection = yield* Protection
  const compliance = yield* Compliance
  return handlers.handleAll({
    settings: () => Effect.map(sqlDefect(compliance.settings), (settings) => ok(settings)),
    updateSettings: ({ payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        return ok(yield* sqlDefect(compliance.update(payload, actorOf(operator, request))), "Protection settings saved")
      }),
    player: ({ params }) => Effect.map(sqlDefect(protection.playerView(params.user)), (view) => ok(view))
  })
}))
