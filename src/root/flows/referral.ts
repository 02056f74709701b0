import { Effect } from "effect"
import { referralMachine } from "../../machines/referral.machine.ts"
import { ReferralApi } from "../../schema/referral.ts"
import { Api } from "../../services/api.ts"
import { data, task, toastFailure, toastSuccess, written } from "../bridge.ts"

const referral = ReferralApi.endpoints

/** /referral-bonus with its calls: the claim's answer shows as a toast. */
export default referralMachine.provide({
  actors: {
    loadReferrals: task((weekly) =>
      Effect.all(
        {
          users: data(Api.use((api) => api.call(referral.referralUsers, {}))),
          // SPEC section 7: the weekly call sends startDate and endDate.
          weeks: data(Api.use((api) => api.call(referral.weeklyReferralTransactions, { query: weekly }))),
          transactions: data(Api.use((api) => api.call(referral.referralTransactions, {})))
        },
        { concurrency: "unbounded" }
      )
    ),
    claim: task(({ key }) => written(Api.use((api) => api.call(referral.claimRefBonus, { payload: {} }, { idempotencyKey: key }))))
  },
  actions: { toastSuccess, toastFailure }
})
