import { assign, type EventObject, fromCallback, fromPromise, setup } from "xstate"
import { addPrices, emptySeries, HISTORY_STEP_MS, type PriceSeries, type RunnerPrice } from "../domain/priceHistory.ts"
import type { PriceHistory } from "../schema/betting.ts"
import { unprovided } from "./unprovided.ts"

/**
 * An exchange market's price chart (the event page's "Chart" toggle): its
 * last hour loads from the server, then every book the odds channel brings
 * for the market adds its best back prices (src/domain/priceHistory.ts), at
 * the server's time (the client's clock moved by how far it was from the
 * server's when the history came). Books that come while the history loads
 * are in the history. A failed load waits for Try again.
 */
export interface PriceChartContext {
  readonly marketId: string
  readonly series: PriceSeries
  /** Server time minus client time (ms), from the history's answer. */
  readonly offset: number
  readonly step: number
}

/** The history, and when (client time, ms) it came. */
export interface LoadedHistory {
  readonly history: PriceHistory
  readonly receivedAt: number
}

export type PriceChartEvent =
  | { type: "chart.book"; prices: ReadonlyArray<RunnerPrice>; at: number }
  | { type: "chart.retry" }

export const priceChartMachine = setup({
  types: { context: {} as PriceChartContext, events: {} as PriceChartEvent, input: {} as { marketId: string } },
  actors: {
    loadHistory: fromPromise<LoadedHistory, { marketId: string }>(unprovided("priceChart", "loadHistory")),
    /** The market's books from the odds channel (the event page watches the event), as `chart.book`, stamped with the client's time. */
    watchBooks: fromCallback<EventObject, { marketId: string }>(unprovided("priceChart", "watchBooks"))
  }
}).createMachine({
  id: "priceChart",
  context: ({ input }) => ({ marketId: input.marketId, series: emptySeries, offset: 0, step: HISTORY_STEP_MS }),
  initial: "Loading",
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadHistory",
        src: "loadHistory",
        input: ({ context }) => ({ marketId: context.marketId }),
        onDone: {
          target: "Live",
          actions: assign(({ event }) => ({
            series: { times: event.output.history.times, runners: event.output.history.runners },
            offset: event.output.history.now - event.output.receivedAt,
            step: event.output.history.step
          }))
        },
        onError: "Failed"
      }
    },
    Live: {
      invoke: { id: "watchBooks", src: "watchBooks", input: ({ context }) => ({ marketId: context.marketId }) },
      on: {
        "chart.book": {
          actions: assign({ series: ({ context, event }) => addPrices(context.series, event.at + context.offset, event.prices, { step: context.step }) })
        }
      }
    },
    Failed: {
      tags: ["failed"],
      on: { "chart.retry": "Loading" }
    }
  }
})
