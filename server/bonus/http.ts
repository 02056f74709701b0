import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { BonusData } from "../../src/schema/bonus.ts"
import { ok } from "../../src/schema/envelope.ts"
import { Bonus } from "./Bonus.ts"
import { currentPlayer, idempotent } from "../edge/guards.ts"
import { sqlDefect } from "../edge/defects.ts"

export const BonusHandlers = HttpApiBuilder.group(Api, "bonus", Effect.fn(function*(handlers) {
  const bonus = yield* Bonus
  return handlers.handleAll({
    bonusData: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* sqlDefect(bonus.data(user.id)))
      }),
    activateBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.activate(user.id, payload.bonusId)), "Bonus activated: it is in your bonus wallet")
      }),
    claimBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.claim(user.id, payload.bonusId)), "Bonus claimed to your main balance")
      }),
    forfeitBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.forfeit(user.id, payload.bonusId)), "Bonus forfeited")
      })
  })
}))
