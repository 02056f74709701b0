import { Effect } from "effect"
import type { AccountDetailsPayload, UpdateAccountDetailsPayload, WithdrawalPayload } from "../../schema/payments.ts"
import { BonusApi } from "../../schema/bonus.ts"
import { PaymentsApi } from "../../schema/payments.ts"
import { ReferralApi } from "../../schema/referral.ts"
import { StatementsApi } from "../../schema/statements.ts"
import { Api, type CallOptions } from "../../services/api.ts"
import { run } from "../../services/runtime.ts"

const payments = PaymentsApi
const statements = StatementsApi
const bonus = BonusApi
const referral = ReferralApi

type Range = { readonly start_date: string; readonly end_date: string }

const data = <A>(effect: Effect.Effect<{ readonly data: A }, unknown, Api>) => Effect.map(effect, (envelope) => envelope.data)

/** A read for the resource machine: the server's message shows as a toast on failure. */
const read = <A>(program: Effect.Effect<{ readonly data: A }, unknown, Api>) => (signal: AbortSignal) => run(data(program), signal)

const write: CallOptions = { notify: "write" }

/** Every call the payments pages make, as programs run on the client runtime. */
export const calls = {
  depositAccounts: read(Api.use((api) => api.call(payments.endpoints.adminAccountDetails, {}, { notify: "failure" }))),
  deposits: (range: Range) => read(Api.use((api) => api.call(payments.endpoints.depositRequests, { query: range }, { notify: "failure" }))),
  accounts: read(Api.use((api) => api.call(payments.endpoints.accountDetails, {}, { notify: "failure" }))),
  withdrawals: (range: Range) => read(Api.use((api) => api.call(payments.endpoints.withdrawalRequests, { query: range }, { notify: "failure" }))),
  screenshot: (id: string) => read(Api.use((api) => api.call(payments.endpoints.screenshot, { params: { id } }, { notify: "failure" }))),
  addAccount: (payload: AccountDetailsPayload) => run(data(Api.use((api) => api.call(payments.endpoints.addAccountDetails, { payload }, write)))),
  updateAccount: (payload: UpdateAccountDetailsPayload) => run(data(Api.use((api) => api.call(payments.endpoints.updateAccountDetails, { payload }, write)))),
  withdraw: (payload: WithdrawalPayload, key: string) =>
    run(data(Api.use((api) => api.call(payments.endpoints.createWithdrawal, { payload }, { ...write, idempotencyKey: key })))),

  statement: (view: "account" | "payments" | "results", query: Range & { readonly isChecked: "true" | "false" }) => {
    const endpoint = view === "account" ? statements.endpoints.accountStatement : view === "payments" ? statements.endpoints.transaction : statements.endpoints.resultTransaction
    return read(Api.use((api) => api.call(endpoint, { query }, { notify: "failure" })))
  },

  bonusData: read(Api.use((api) => api.call(bonus.endpoints.bonusData, {}, { notify: "failure" }))),
  bonusAction: (action: "activate" | "claim" | "forfeit", bonusId: string, key: string) => {
    const endpoint = action === "activate" ? bonus.endpoints.activateBonus : action === "claim" ? bonus.endpoints.claimBonus : bonus.endpoints.forfeitBonus
    return run(data(Api.use((api) => api.call(endpoint, { payload: { bonusId } }, { ...write, idempotencyKey: key }))))
  },

  referralUsers: read(Api.use((api) => api.call(referral.endpoints.referralUsers, {}, { notify: "failure" }))),
  referralTransactions: read(Api.use((api) => api.call(referral.endpoints.referralTransactions, {}, { notify: "failure" }))),
  weeklyReferrals: read(Api.use((api) => api.call(referral.endpoints.weeklyReferralTransactions, { query: {} }, { notify: "failure" }))),
  claimReferral: (key: string) => run(data(Api.use((api) => api.call(referral.endpoints.claimRefBonus, { payload: {} }, { ...write, idempotencyKey: key }))))
}

/** A key per attempt of a money-moving write, so a retried request never moves money twice. */
export const idempotencyKey = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
