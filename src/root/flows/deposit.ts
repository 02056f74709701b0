import { depositMachine } from "../../machines/deposit.machine.ts"
import { depositFormMachine } from "../../machines/depositForm.machine.ts"
import { PaymentsApi } from "../../schema/payments.ts"
import { Api } from "../../services/api.ts"
import { data, task, toast } from "../bridge.ts"

const payments = PaymentsApi.endpoints

/** The deposit form with its calls: 'Deposit request submitted' or the server's refusal shows as a toast (SPEC section 7). */
export const depositForm = depositFormMachine.provide({
  actors: {
    loadAccounts: task(() => data(Api.use((api) => api.call(payments.adminAccountDetails, {}, { notify: "failure" })))),
    submit: task(({ key, payload }) => data(Api.use((api) => api.call(payments.createDeposit, { payload }, { notify: "write", idempotencyKey: key }))))
  },
  actions: { warn: toast("warning") }
})

/** /deposit with its calls. */
export default depositMachine.provide({
  actors: {
    depositForm,
    loadHistory: task((range) => data(Api.use((api) => api.call(payments.depositRequests, { query: range }, { notify: "failure" })))),
    loadScreenshot: task((id) => data(Api.use((api) => api.call(payments.screenshot, { params: { id } }, { notify: "failure" }))))
  }
})
