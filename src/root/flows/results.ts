import { resultsMachine } from "../../machines/results.machine.ts"
import { ResultsApi } from "../../schema/results.ts"
import { Api } from "../../services/api.ts"
import { data, task, toastFailure } from "../bridge.ts"

const { results } = ResultsApi.endpoints

/** /results with its call: a first page's failure is shown on the page, a next page's as a toast. */
export default resultsMachine.provide({
  actors: {
    loadResults: task((query) => data(Api.use((api) => api.call(results, { query })))),
    loadMore: task((query) => data(Api.use((api) => api.call(results, { query }))))
  },
  actions: { toastFailure }
})
