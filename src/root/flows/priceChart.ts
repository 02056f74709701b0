import { Effect } from "effect"
import { type EventObject, fromCallback } from "xstate"
import { bookPrices } from "../../domain/priceHistory.ts"
import { priceChartMachine } from "../../machines/priceChart.machine.ts"
import { OddsApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"
import { odds } from "../../services/odds.ts"

/**
 * A market's books from the odds store (the page watching its event keeps them coming: no subscription of its own),
 * as `chart.book` with each runner's best back price and the client's time.
 */
const watchBookPrices = fromCallback<EventObject, { marketId: string }>(({ input, sendBack }) =>
  odds.subscribeMarket(input.marketId, () => {
    const book = odds.book(input.marketId)
    if (book) sendBack({ type: "chart.book", prices: bookPrices(book), at: Date.now() })
  }))

/** A market's price chart: its last hour from GET /price-history (a failure is shown on the chart), then its books. */
export default priceChartMachine.provide({
  actors: {
    loadHistory: task(({ marketId }: { marketId: string }) =>
      data(Api.use((api) => api.call(OddsApi.endpoints.priceHistory, { query: { market_id: marketId } }))).pipe(
        Effect.map((history) => ({ history, receivedAt: Date.now() }))
      )),
    watchBooks: watchBookPrices
  }
})
