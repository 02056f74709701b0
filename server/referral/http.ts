import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { ReferralUsers } from "../../src/schema/referral.ts"
import { currentPlayer, idempotent, rangeOf } from "../edge/guards.ts"
import { sqlDefects } from "../edge/defects.ts"
import { Admission } from "../protection/Admission.ts"
import { Referral } from "./Referral.ts"

export const ReferralHandlers = HttpApiBuilder.group(Api, "referral", Effect.fn(function*(handlers) {
  const referral = yield* Referral
  const admission = yield* Admission
  return handlers.handleAll(sqlDefects(handlers, {
    referralUsers: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* referral.users(user.id))
      }),
    referralTransactions: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* referral.transactions(user.id))
      }),
    weeklyReferralTransactions: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        // Without a start, the last eight weeks.
        const range = yield* rangeOf({
          start_date: query.startDate ?? new Date(Date.now() - 8 * 7 * 86_400_000).toISOString(),
          ...(query.endDate ? { end_date: query.endDate } : {})
        })
        return ok(yield* referral.weekly(user.id, range.from, range.to))
      }),
    claimRefBonus: ({ request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        // A bonus: closed to players on a break or self-excluded.
        yield* admission.admitPlay(user.id)
        return ok(yield* idempotent(request, user.id, {}, ReferralUsers, referral.claim(user.id)), "Referral bonus claimed to your main balance")
      })
  }))
}))
