import { myBetsMachine } from "../../machines/myBets.machine.ts"
import { BettingApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"
import { myBetsQuery } from "../requests.ts"

/** The player's open bets, all or one event's (bet-sport-byMarket). */
export default myBetsMachine.provide({
  actors: {
    loadBets: task((query) =>
      data(Api.use((api) => api.call(BettingApi.endpoints.betsByMarket, { query: myBetsQuery(query) }, { notify: "none" })))
    )
  }
})
