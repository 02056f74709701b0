import { Effect } from "effect"
import { priceChartMachine } from "../../machines/priceChart.machine.ts"
import { OddsApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"
import { watchBookPrices } from "../odds.ts"

/** A market's price chart: its last hour from GET /price-history (a failure is shown on the chart), then its books. */
export default priceChartMachine.provide({
  actors: {
    loadHistory: task(({ marketId }: { marketId: string }) =>
      data(Api.use((api) => api.call(OddsApi.endpoints.priceHistory, { query: { market_id: marketId } }, { notify: "none" }))).pipe(
        Effect.map((history) => ({ history, receivedAt: Date.now() }))
      )),
    watchBooks: watchBookPrices
  }
})
