import { Effect, Exit } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatSigned } from "../../src/domain/money.ts"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { sqlDefects } from "../edge/defects.ts"
import { idempotencyKeyOf } from "../ledger/Idempotency.ts"
import { recordCashOut, refusalOf } from "../observability/metrics.ts"
import { AutoCashOut } from "./AutoCashOut.ts"
import { CashOut } from "./CashOut.ts"

/** The endpoints of src/schema/cashOut.ts. */
export const CashOutHandlers = HttpApiBuilder.group(Api, "cashOut", Effect.fn(function*(handlers) {
  const cashOut = yield* CashOut
  const auto = yield* AutoCashOut
  return handlers.handleAll(sqlDefects(handlers, {
    cashOutQuote: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        return ok(yield* cashOut.quote(user.id, query.marketId, query.fraction ?? 1))
      }),
    cashOut: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const answer = yield* cashOut.accept(user, payload, yield* idempotencyKeyOf(request))
        return answer.outcome === "cashedOut"
          ? ok(answer, `Cashed out: ${formatSigned(answer.value)} whatever wins`)
          : ok(answer, "The cash out value changed. Please check the new value and confirm again.")
      }).pipe(
        // Every cash out answered is counted: taken, re-quoted, or refused and why.
        Effect.onExit((exit) =>
          recordCashOut(Exit.isSuccess(exit) ? (exit.value.data.outcome === "cashedOut" ? "cashed_out" : "requoted") : refusalOf(exit) ?? "internal")
        )
      ),
    autoCashOutRules: () =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        return ok(yield* auto.rules(user.id))
      }),
    setAutoCashOut: ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const rules = yield* auto.set(user.id, payload)
        return ok(rules, payload.target === null && payload.floor === null ? "Auto cash out removed" : "Auto cash out set")
      })
  }))
}))
