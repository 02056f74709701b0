import { casinoBetsMachine } from "../../machines/casinoBets.machine.ts"
import { CasinoPlayApi } from "../../schema/casino.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"

/** A lobby's casino bets with their call; a failure shows in the panel, not as a toast. */
export default casinoBetsMachine.provide({
  actors: {
    loadBets: task((query) => data(Api.use((api) => api.call(CasinoPlayApi.endpoints.casinoBetsByDate, { query }))))
  }
})
