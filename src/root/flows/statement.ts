import type { StatementView } from "../../machines/statement.machine.ts"
import { statementMachine } from "../../machines/statement.machine.ts"
import { StatementsApi } from "../../schema/statements.ts"
import { Api } from "../../services/api.ts"
import { data, task, toastFailure } from "../bridge.ts"

const statements = StatementsApi.endpoints

/** SPEC section 7: account-statement, transaction (deposits and withdrawals) and result-transaction (profit and loss). */
const endpoints = { account: statements.accountStatement, payments: statements.transaction, results: statements.resultTransaction } satisfies Record<StatementView, unknown>

/** /statements and /profit-loss with their calls. */
export default statementMachine.provide({
  actors: {
    loadStatement: task(({ view, query }) => data(Api.use((api) => api.call(endpoints[view], { query }))))
  },
  actions: { toastFailure }
})
