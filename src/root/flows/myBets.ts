import { myBetsMachine } from "../../machines/myBets.machine.ts"
import { BettingApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task, toastFailure, toastSuccess, written } from "../bridge.ts"
import { cancelBetPayload, editBetPayload, myBetsQuery } from "../requests.ts"

/**
 * The player's open bets, all or one event's (bet-sport-byMarket); Cancel on what waits (cancel-bet) and a move to
 * another price (edit-bet): their messages are the toasts.
 */
export default myBetsMachine.provide({
  actors: {
    loadBets: task((query) =>
      data(Api.use((api) => api.call(BettingApi.endpoints.betsByMarket, { query: myBetsQuery(query) })))
    ),
    cancelBet: task((request: { betId: string; key: string }) =>
      written(Api.use((api) => api.call(BettingApi.endpoints.cancelBet, { payload: cancelBetPayload(request) }, { idempotencyKey: request.key })))
    ),
    moveBet: task((request: { betId: string; key: string; odds: number }) =>
      written(Api.use((api) => api.call(BettingApi.endpoints.editBet, { payload: editBetPayload(request) }, { idempotencyKey: request.key })))
    )
  },
  actions: { toastSuccess, toastFailure }
})
