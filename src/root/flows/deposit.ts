import { depositMachine } from "../../machines/deposit.machine.ts"
import { depositFormMachine } from "../../machines/depositForm.machine.ts"
import { PaymentsApi } from "../../schema/payments.ts"
import { Api } from "../../services/api.ts"
import { data, task, toast, toastFailure, toastSuccess, written } from "../bridge.ts"

const payments = PaymentsApi.endpoints

/** The deposit form with its calls: 'Deposit request submitted' or the server's refusal shows as a toast (SPEC section 7). */
export const depositForm = depositFormMachine.provide({
  actors: {
    loadAccounts: task(() => data(Api.use((api) => api.call(payments.adminAccountDetails, {})))),
    submit: task(({ key, payload }) => written(Api.use((api) => api.call(payments.createDeposit, { payload }, { idempotencyKey: key }))))
  },
  actions: { warn: toast("warning"), toastSuccess, toastFailure }
})

/** /deposit with its calls. */
export default depositMachine.provide({
  actors: {
    depositForm,
    loadHistory: task((range) => data(Api.use((api) => api.call(payments.depositRequests, { query: range })))),
    loadScreenshot: task((id) => data(Api.use((api) => api.call(payments.screenshot, { params: { id } }))))
  },
  actions: { toastFailure }
})
