import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { ok } from "../../src/schema/envelope.ts"
import { DepositRequest, WithdrawalRequest } from "../../src/schema/payments.ts"
import { currentPlayer, idempotent, rangeOf } from "../edge/guards.ts"
import { Payments } from "./Payments.ts"
import { Uploads } from "../uploads/Uploads.ts"
import { sqlDefects } from "../edge/defects.ts"

export const PaymentsHandlers = HttpApiBuilder.group(Api, "payments", Effect.fn(function*(handlers) {
  const payments = yield* Payments
  const uploads = yield* Uploads
  return handlers.handleAll(sqlDefects(handlers, {
    adminAccountDetails: () =>
      Effect.gen(function*() {
        yield* currentPlayer
        const accounts = yield* payments.depositAccounts()
        return ok(accounts.map(({ active: _active, ...account }) => account))
      }),
    accountDetails: () =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        return ok(yield* payments.accounts(user.id))
      }),
    addAccountDetails: ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const account = yield* payments.addAccount(user.id, payload)
        return ok(account, account.type === "upi" ? "Your UPI has been added" : "Bank Account has been added")
      }),
    updateAccountDetails: ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const account = yield* payments.updateAccount(user.id, payload)
        return ok(account, account.type === "upi" ? "Your UPI has been updated" : "Bank Account has been updated")
      }),
    depositRequests: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const range = yield* rangeOf(query)
        return ok(yield* payments.deposits({ ...range, userId: user.id }))
      }),
    createDeposit: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const deposit = yield* idempotent(request, user.id, payload, DepositRequest, payments.createDeposit(user.id, payload)).pipe(
          // The refusal rolled the request's transaction back; who tried is recorded after it.
          Effect.tapError((error) => error.tag === "ReferenceUsed" ? payments.signalReusedReference(user.id, payload) : Effect.void)
        )
        return ok(deposit, "Deposit request submitted. Your balance updates once it is approved.")
      }),
    withdrawalRequests: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const range = yield* rangeOf(query)
        return ok(yield* payments.withdrawals({ ...range, userId: user.id }))
      }),
    createWithdrawal: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        const withdrawal = yield* idempotent(request, user.id, payload, WithdrawalRequest, payments.createWithdrawal(user.id, payload))
        return ok(withdrawal, "Withdrawal requested. The amount is held until it is paid.")
      }),
    screenshot: ({ params }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const image = yield* uploads.read(user, params.id)
        return ok({ _id: params.id, image })
      })
  }))
}))
