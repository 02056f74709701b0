import { describe, expect, it } from "vitest"
import { createActor, type EventObject, fromCallback, fromPromise } from "xstate"
import { HISTORY_STEP_MS } from "../../src/domain/priceHistory.ts"
import { type LoadedHistory, priceChartMachine, type PriceChartEvent } from "../../src/machines/priceChart.machine.ts"
import type { PriceHistory } from "../../src/schema/betting.ts"

const SERVER_NOW = Date.UTC(2026, 10, 28, 12)
/** The client's clock is 5 minutes behind the server's. */
const SKEW = 5 * 60_000
const history: PriceHistory = {
  marketId: "m1",
  now: SERVER_NOW,
  step: HISTORY_STEP_MS,
  times: [SERVER_NOW - HISTORY_STEP_MS, SERVER_NOW],
  runners: [{ selectionId: "a", prices: [2, 2.1] }, { selectionId: "b", prices: [1.9, 1.85] }]
}

/** The chart with a history load that answers (or fails) when told, and the book watcher's `sendBack`. */
const start = () => {
  const calls: Array<{ marketId: string; resolve: (out: LoadedHistory) => void; reject: (e: unknown) => void }> = []
  const watching: Array<{ marketId: string; send: (event: PriceChartEvent) => void }> = []
  let stopped = 0
  const actor = createActor(priceChartMachine.provide({
    actors: {
      loadHistory: fromPromise<LoadedHistory, { marketId: string }>(({ input }) => new Promise((resolve, reject) => calls.push({ marketId: input.marketId, resolve, reject }))),
      watchBooks: fromCallback<EventObject, { marketId: string }>(({ input, sendBack }) => {
        watching.push({ marketId: input.marketId, send: sendBack })
        return () => void stopped++
      })
    }
  }), { input: { marketId: "m1" } }).start()
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return { actor, calls, watching, settle, stopped: () => stopped }
}

describe("price chart machine", () => {
  it("loads the market's history, then adds each book's prices on the server's clock", async () => {
    const { actor, calls, watching, settle } = start()
    expect(actor.getSnapshot().hasTag("loading")).toBe(true)
    expect(calls.map((c) => c.marketId)).toEqual(["m1"])
    // No books are followed before the history is in: they are in it.
    expect(watching).toHaveLength(0)
    calls[0]!.resolve({ history, receivedAt: SERVER_NOW - SKEW })
    await settle()
    const loaded = actor.getSnapshot()
    expect(loaded.value).toBe("Live")
    expect(loaded.context.series.times).toEqual(history.times)
    expect(loaded.context.offset).toBe(SKEW)
    expect(watching.map((w) => w.marketId)).toEqual(["m1"])

    // A book a step later (client time) is a new point at the server's time; one in the same step replaces it.
    const at = SERVER_NOW - SKEW + HISTORY_STEP_MS
    watching[0]!.send({ type: "chart.book", prices: [{ selectionId: "a", price: 2.2 }, { selectionId: "b", price: 1.8 }], at })
    watching[0]!.send({ type: "chart.book", prices: [{ selectionId: "a", price: 2.3 }, { selectionId: "b", price: 1.8 }], at: at + 1000 })
    const live = actor.getSnapshot().context.series
    expect(live.times).toEqual([...history.times, SERVER_NOW + HISTORY_STEP_MS + 1000])
    expect(live.runners.map((r) => r.prices.at(-1))).toEqual([2.3, 1.8])
    expect(live.runners[0]!.prices.slice(0, 2)).toEqual([2, 2.1])
  })

  it("shows a failed load and tries again when asked; stopping ends the books", async () => {
    const { actor, calls, watching, settle, stopped } = start()
    calls[0]!.reject({ code: 404, message: "No chart", reason: "NotFound" })
    await settle()
    expect(actor.getSnapshot().hasTag("failed")).toBe(true)
    actor.send({ type: "chart.book", prices: [{ selectionId: "a", price: 3 }], at: SERVER_NOW })
    expect(actor.getSnapshot().context.series.times).toEqual([])
    actor.send({ type: "chart.retry" })
    expect(actor.getSnapshot().hasTag("loading")).toBe(true)
    expect(calls).toHaveLength(2)
    calls[1]!.resolve({ history, receivedAt: SERVER_NOW })
    await settle()
    expect(watching).toHaveLength(1)
    actor.stop()
    expect(stopped()).toBe(1)
  })
})
