import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { CurrentStaff, CurrentUser } from "../../src/schema/middleware.ts"
import { Audit } from "../desk/Audit.ts"
import { actorOf as deskActorOf } from "../desk/Staff.ts"
import { isOperatorRole } from "../../src/schema/user.ts"
import { sqlDefects } from "../edge/defects.ts"
import { clientOf } from "../identity/http.ts"
import { Activity } from "./Activity.ts"
import type { Actor } from "./audit.ts"
import { Compliance } from "./Compliance.ts"
import { type Changed, Protection } from "./Protection.ts"

/** Players and credit players have protection; operators have no play to protect. */
const currentPlayer = Effect.gen(function*() {
  const user = yield* CurrentUser
  if (isOperatorRole(user.role)) return yield* refuse("Forbidden", "Player protection is for player accounts.")
  return user
})

const actorOf = (user: { readonly id: string }, request: HttpServerRequest.HttpServerRequest): Actor => ({ id: user.id, ip: clientOf(request).ip })

const answer = (changed: Changed) => ok(changed.state, changed.message)

export const ProtectionHandlers = HttpApiBuilder.group(Api, "protection", Effect.fn(function*(handlers) {
  const protection = yield* Protection
  const activity = yield* Activity
  return handlers.handleAll(sqlDefects(handlers, {
    protection: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* protection.state(user.id))
      }),
    setLimit: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.setLimit(user.id, payload, actorOf(user, request)))
      }),
    confirmLimit: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.confirmLimit(user.id, payload.kind, payload.period, actorOf(user, request)))
      }),
    setRealityCheck: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.setRealityCheck(user.id, payload.minutes, actorOf(user, request)))
      }),
    continueSession: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* protection.continueSession(user.id))
      }),
    timeOut: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.timeOut(user.id, payload.days, actorOf(user, request)))
      }),
    selfExclude: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.selfExclude(user.id, payload.months, actorOf(user, request)))
      }),
    requestReturn: ({ request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return answer(yield* protection.requestReturn(user.id, actorOf(user, request)))
      }),
    activity: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* activity.statement(user.id))
      })
  }))
}))

/** Staff on the desk (the group's StaffAuthentication middleware names each endpoint's permission). */
export const ProtectionAdminHandlers = HttpApiBuilder.group(Api, "protectionAdmin", Effect.fn(function*(handlers) {
  const protection = yield* Protection
  const compliance = yield* Compliance
  const audit = yield* Audit
  return handlers.handleAll(sqlDefects(handlers, {
    settings: () => Effect.map(compliance.settings, (settings) => ok(settings)),
    updateSettings: ({ payload, request }) =>
      Effect.gen(function*() {
        const staff = yield* CurrentStaff
        // Protection keeps its own audit too (docs/protection.md); the desk's trail has every staff action.
        const saved = yield* audit.around(deskActorOf(staff), { action: "protection-settings.update" }, compliance.update(payload, actorOf(staff, request)), compliance.settings)
        return ok(saved, "Protection settings saved")
      }),
    player: ({ params }) => Effect.map(protection.playerView(params.user), (view) => ok(view))
  }))
}))
