import { payoutAccountsMachine } from "../../machines/payoutAccounts.machine.ts"
import { withdrawalMachine } from "../../machines/withdrawal.machine.ts"
import { PaymentsApi } from "../../schema/payments.ts"
import { Api } from "../../services/api.ts"
import { data, task, toast, toastFailure, toastSuccess, written } from "../bridge.ts"

const payments = PaymentsApi.endpoints

/** The payout accounts with their calls: the server's answer to a save shows as a toast (SPEC section 7). */
export const payoutAccounts = payoutAccountsMachine.provide({
  actors: {
    loadAccounts: task(() => data(Api.use((api) => api.call(payments.accountDetails, {})))),
    saveAccount: task(({ accountId, account }) =>
      written(Api.use((api) =>
        accountId === undefined
          ? api.call(payments.addAccountDetails, { payload: account })
          : api.call(payments.updateAccountDetails, { payload: { ...account, accountId } })
      ))
    )
  },
  actions: { warn: toast("warning"), toastSuccess, toastFailure }
})

/** /withdrawal with its calls: 'Withdrawal requested' or the server's refusal shows as a toast. */
export default withdrawalMachine.provide({
  actors: {
    payoutAccounts,
    loadHistory: task((range) => data(Api.use((api) => api.call(payments.withdrawalRequests, { query: range })))),
    submit: task(({ key, payload }) => written(Api.use((api) => api.call(payments.createWithdrawal, { payload }, { idempotencyKey: key }))))
  },
  actions: { warn: toast("warning"), toastSuccess, toastFailure }
})
