import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { formatRupees, toPaise, toRupees } from "../../src/domain/money.ts"
import { CreditResult } from "../../src/schema/admin.ts"
import { CurrentStaff } from "../../src/schema/middleware.ts"
import { Api } from "../../src/schema/api.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { DepositRequest, WithdrawalRequest } from "../../src/schema/payments.ts"
import { ServerConfig } from "../config.ts"
import { Audit } from "../desk/Audit.ts"
import { Decisions } from "../desk/Decisions.ts"
import { actorOf } from "../desk/Staff.ts"
import { Users } from "../identity/Users.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { idempotent, rangeOf } from "../edge/guards.ts"
import { Payments } from "./Payments.ts"
import { sqlDefects } from "../edge/defects.ts"

/**
 * The operator's API for scripts and the command line: deposit and withdrawal requests, deposit accounts, demo
 * credits (desk sessions of staff with the permission each endpoint names; every write audited).
 */
export const AdminHandlers = HttpApiBuilder.group(Api, "admin", Effect.fn(function*(handlers) {
  const payments = yield* Payments
  const decisions = yield* Decisions
  const audit = yield* Audit
  const users = yield* Users
  const ledger = yield* Ledger
  const { seedDemo } = yield* ServerConfig
  const staff = Effect.map(CurrentStaff, (me) => ({ me, actor: actorOf(me) }))
  return handlers.handleAll(sqlDefects(handlers, {
    deposits: ({ query }) =>
      Effect.gen(function*() {
        const range = yield* rangeOf(query)
        return ok(yield* payments.deposits({ ...range, status: query.status }))
      }),
    approveDeposit: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const { me, actor } = yield* staff
        return ok(yield* idempotent(request, me.id, payload, DepositRequest, decisions.decideDeposit(actor, params.id, { status: "approved", remark: payload.remark })), "Deposit approved")
      }),
    rejectDeposit: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const { me, actor } = yield* staff
        return ok(yield* idempotent(request, me.id, payload, DepositRequest, decisions.decideDeposit(actor, params.id, { status: "rejected", remark: payload.remark })), "Deposit rejected")
      }),
    withdrawals: ({ query }) =>
      Effect.gen(function*() {
        const range = yield* rangeOf(query)
        return ok(yield* payments.withdrawals({ ...range, status: query.status }))
      }),
    approveWithdrawal: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const { me, actor } = yield* staff
        return ok(yield* idempotent(request, me.id, payload, WithdrawalRequest, decisions.decideWithdrawal(actor, params.id, { status: "approved", remark: payload.remark, payoutReference: payload.reference })), "Withdrawal marked as paid")
      }),
    rejectWithdrawal: ({ params, payload, request }) =>
      Effect.gen(function*() {
        const { me, actor } = yield* staff
        return ok(yield* idempotent(request, me.id, payload, WithdrawalRequest, decisions.decideWithdrawal(actor, params.id, { status: "rejected", remark: payload.remark })), "Withdrawal rejected; the amount is back in the player's balance")
      }),
    depositAccounts: () =>
      Effect.gen(function*() {
        return ok(yield* payments.depositAccounts({ includeInactive: true }))
      }),
    addDepositAccount: ({ payload }) =>
      Effect.gen(function*() {
        const { actor } = yield* staff
        const account = yield* audit.around(actor, { action: "deposit-account.add" }, payments.addDepositAccount(payload))
        return ok(account, "Deposit account added")
      }),
    updateDepositAccount: ({ params, payload }) =>
      Effect.gen(function*() {
        const { actor } = yield* staff
        const before = Effect.map(payments.depositAccounts({ includeInactive: true }), (accounts) => accounts.find((account) => account._id === params.id) ?? null)
        const account = yield* audit.around(actor, { action: "deposit-account.update", subject: { kind: "deposit-account", id: params.id } }, payments.updateDepositAccount(params.id, payload), before)
        return ok(account, "Deposit account updated")
      }),
    credit: ({ payload, request }) =>
      Effect.gen(function*() {
        const { me, actor } = yield* staff
        // Money from nowhere without a second pair of eyes is for demo servers only.
        if (!seedDemo) return yield* refuse("Forbidden", "Demo credits are for demo servers. Make a manual adjustment on the player's page instead.")
        const paise = toPaise(payload.amount)
        if (paise === undefined || paise <= 0) return yield* refuse("InvalidInput", "Amount must be a positive number of rupees with at most two decimals")
        const target = (yield* users.byUsername(payload.user)) ?? (yield* users.byId(payload.user))
        if (!target) return yield* refuse("NotFound", `There is no player ${payload.user}.`)
        const result = yield* idempotent(request, me.id, payload, CreditResult, audit.around(actor, { action: "player.credit", subject: { kind: "player", id: target.id } }, Effect.gen(function*() {
          const transactionId = yield* payments.credit(target.id, paise, payload.note ?? "", me.id)
          const balances = yield* ledger.balances(target.id)
          return { userId: target.id, transactionId, balance: toRupees(balances.main) }
        })))
        return ok(result, `Credited ${formatRupees(payload.amount)} to ${target.username}`)
      })
  }))
}))
