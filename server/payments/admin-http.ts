import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatRupees, toPaise, toRupees } from "../../src/domain/money.ts"
import { CreditResult } from "../../src/schema/admin.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { Api } from "../../src/schema/api.ts"
import { badRequest, notFound, ok } from "../../src/schema/envelope.ts"
import { DepositRequest, WithdrawalRequest } from "../../src/schema/payments.ts"
import { Users } from "../identity/Users.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { idempotent, rangeOf } from "../edge/guards.ts"
import { Payments } from "./Payments.ts"
import { sqlDefect } from "../edge/defects.ts"

/** The operator's desk: deposit and withdrawal requests, deposit accounts, credits (the group is OperatorOnly). */
export const AdminHandlers = HttpApiBuilder.group(Api, "admin", Effect.fn(function*(handlers) {
  const payments = yield* Payments
  const users = yield* Users
  const ledger = yield* Ledger
  return handlers.handleAll({
    deposits: ({ query }) =>
      Effect.gen(function*() {
        const range = yield* rangeOf(query)
        return ok(yield* sqlDefect(payments.deposits({ ...range, status: query.status })))
      }),
    approveDeposit: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        return ok(yield* idempotent(request, operator.id, payload, DepositRequest, payments.approveDeposit(params.id, operator.id, payload.remark)), "Deposit approved")
      }),
    rejectDeposit: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        return ok(yield* idempotent(request, operator.id, payload, DepositRequest, payments.rejectDeposit(params.id, operator.id, payload.remark)), "Deposit rejected")
      }),
    withdrawals: ({ query }) =>
      Effect.gen(function*() {
        const range = yield* rangeOf(query)
        return ok(yield* sqlDefect(payments.withdrawals({ ...range, status: query.status })))
      }),
    approveWithdrawal: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        return ok(yield* idempotent(request, operator.id, payload, WithdrawalRequest, payments.approveWithdrawal(params.id, operator.id, payload.remark)), "Withdrawal marked as paid")
      }),
    rejectWithdrawal: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        return ok(yield* idempotent(request, operator.id, payload, WithdrawalRequest, payments.rejectWithdrawal(params.id, operator.id, payload.remark)), "Withdrawal rejected; the amount is back in the player's balance")
      }),
    depositAccounts: () =>
      Effect.gen(function*() {
        return ok(yield* sqlDefect(payments.depositAccounts({ includeInactive: true })))
      }),
    addDepositAccount: ({ payload }) =>
      Effect.gen(function*() {
        return ok(yield* sqlDefect(payments.addDepositAccount(payload)), "Deposit account added")
      }),
    updateDepositAccount: ({ params, payload }) =>
      Effect.gen(function*() {
        return ok(yield* sqlDefect(payments.updateDepositAccount(params.id, payload)), "Deposit account updated")
      }),
    credit: ({ payload, request }) =>
      Effect.gen(function*() {
        const operator = yield* CurrentUser
        const paise = toPaise(payload.amount)
        if (paise === undefined || paise <= 0) return yield* badRequest("Amount must be a positive number of rupees with at most two decimals")
        const target = (yield* sqlDefect(users.byUsername(payload.user))) ?? (yield* sqlDefect(users.byId(payload.user)))
        if (!target) return yield* notFound(`There is no player ${payload.user}.`)
        const result = yield* idempotent(request, operator.id, payload, CreditResult, Effect.gen(function*() {
          const transactionId = yield* payments.credit(target.id, paise, payload.note ?? "", operator.id)
          const balances = yield* ledger.balances(target.id)
          return { userId: target.id, transactionId, balance: toRupees(balances.main) }
        }))
        return ok(result, `Credited ${formatRupees(payload.amount)} to ${target.username}`)
      })
  })
}))
