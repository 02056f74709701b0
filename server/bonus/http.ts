import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { BonusData } from "../../src/schema/bonus.ts"
import { ok } from "../../src/schema/envelope.ts"
import { currentPlayer, idempotent } from "../edge/guards.ts"
import { sqlDefects } from "../edge/defects.ts"
import { Admission } from "../protection/Admission.ts"
import { Bonus } from "./Bonus.ts"

export const BonusHandlers = HttpApiBuilder.group(Api, "bonus", Effect.fn(function*(handlers) {
  const bonus = yield* Bonus
  const admission = yield* Admission
  return handlers.handleAll(sqlDefects(handlers, {
    bonusData: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const data = yield* bonus.data(user.id)
        // Offers not taken up are marketing: not shown to a player on a break or self-excluded.
        if (!(yield* admission.hidesMarketing(user.id))) return ok(data)
        return ok({ ...data, bonuses: data.bonuses.filter((offer) => offer.status !== "available") })
      }),
    activateBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        yield* admission.admitPlay(user.id)
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.activate(user.id, payload.bonusId)), "Bonus activated: it is in your bonus wallet")
      }),
    claimBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        yield* admission.admitPlay(user.id)
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.claim(user.id, payload.bonusId)), "Bonus claimed to your main balance")
      }),
    forfeitBonus: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* idempotent(request, user.id, payload, BonusData, bonus.forfeit(user.id, payload.bonusId)), "Bonus forfeited")
      })
  }))
}))
