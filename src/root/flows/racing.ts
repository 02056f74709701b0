import { racingMachine } from "../../machines/racing.machine.ts"
import { OddsApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"
import { watchCatalogue } from "../odds.ts"

/** /racing with its call and the odds channel's catalogue changes. */
export default racingMachine.provide({
  actors: {
    loadRacing: task(() => data(Api.use((api) => api.call(OddsApi.endpoints.racing, {})))),
    watchCatalogue: watchCatalogue("racing.reload")
  }
})
