import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addPrices, bookPrices, emptySeries, HISTORY_SPAN_MS, HISTORY_STEP_MS, type PriceSeries, seriesSince } from "../../src/domain/priceHistory.ts"
import type { MarketBook } from "../../src/schema/betting.ts"

const T0 = Date.UTC(2026, 10, 28, 12)
const prices = (a: number | null, b: number | null = 3) => [{ selectionId: "a", price: a }, { selectionId: "b", price: b }]
const of = (series: PriceSeries, id: string) => series.runners.find((r) => r.selectionId === id)!.prices

describe("price history", () => {
  it("keeps one point per step: the step's latest prices and time", () => {
    let series = addPrices(emptySeries, T0, prices(2))
    series = addPrices(series, T0 + 1000, prices(2.1))
    expect(series.times).toEqual([T0 + 1000])
    expect(of(series, "a")).toEqual([2.1])
    series = addPrices(series, T0 + HISTORY_STEP_MS, prices(2.2))
    expect(series.times).toEqual([T0 + 1000, T0 + HISTORY_STEP_MS])
    expect(of(series, "a")).toEqual([2.1, 2.2])
    expect(of(series, "b")).toEqual([3, 3])
  })

  it("returns the same history for the same prices in the same step, and ignores a time before its last point", () => {
    const series = addPrices(emptySeries, T0, prices(2))
    expect(addPrices(series, T0 + 10, prices(2))).toBe(series)
    expect(addPrices(series, T0 - 1, prices(5))).toBe(series)
  })

  it("starts a runner new to the market with no price, and a runner gone from the book has none", () => {
    let series = addPrices(emptySeries, T0, [{ selectionId: "a", price: 2 }])
    series = addPrices(series, T0 + HISTORY_STEP_MS, prices(2, 4))
    expect(of(series, "b")).toEqual([null, 4])
    series = addPrices(series, T0 + 2 * HISTORY_STEP_MS, [{ selectionId: "b", price: 4.5 }])
    expect(of(series, "a")).toEqual([2, 2, null])
  })

  it("drops points older than an hour, as points come and as time passes", () => {
    let series = addPrices(emptySeries, T0, prices(2))
    series = addPrices(series, T0 + HISTORY_SPAN_MS - 1, prices(2.5))
    expect(series.times).toEqual([T0, T0 + HISTORY_SPAN_MS - 1])
    series = addPrices(series, T0 + HISTORY_SPAN_MS + HISTORY_STEP_MS, prices(3))
    expect(series.times).toEqual([T0 + HISTORY_SPAN_MS - 1, T0 + HISTORY_SPAN_MS + HISTORY_STEP_MS])
    expect(of(series, "a")).toEqual([2.5, 3])
    expect(seriesSince(series, T0 + 2 * HISTORY_SPAN_MS + HISTORY_STEP_MS).times).toEqual([])
    expect(seriesSince(series, T0 + 2 * HISTORY_SPAN_MS + HISTORY_STEP_MS - 1).times).toEqual([T0 + HISTORY_SPAN_MS + HISTORY_STEP_MS])
  })

  it("stays bounded, in order, within the hour, with every runner's prices as long as its times", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ gap: fc.integer({ min: -5_000, max: 10 * 60_000 }), price: fc.option(fc.double({ min: 1.01, max: 1000, noNaN: true })) }), { maxLength: 600 }),
      (moves) => {
        let series = emptySeries
        let now = T0
        for (const move of moves) {
          now += move.gap
          series = addPrices(series, now, prices(move.price))
          const last = series.times.at(-1)!
          expect(series.times.length).toBeLessThanOrEqual(HISTORY_SPAN_MS / HISTORY_STEP_MS + 1)
          for (let i = 1; i < series.times.length; i++) {
            expect(series.times[i]!).toBeGreaterThan(series.times[i - 1]!)
            expect(Math.floor(series.times[i]! / HISTORY_STEP_MS)).toBeGreaterThan(Math.floor(series.times[i - 1]! / HISTORY_STEP_MS))
          }
          expect(series.times[0]!).toBeGreaterThan(last - HISTORY_SPAN_MS)
          for (const runner of series.runners) expect(runner.prices).toHaveLength(series.times.length)
        }
      }
    ), { numRuns: 200 })
  })

  it("charts a book's best back price of each runner", () => {
    const book: MarketBook = {
      marketId: "m", eventId: "e", marketType: "EXCHANGE", status: "OPEN", inPlay: true, version: 1,
      runners: [{ selectionId: "a", back: [{ price: 1.9, size: 10 }, { price: 1.88, size: 5 }], lay: [] }, { selectionId: "b", back: [], lay: [] }]
    }
    expect(bookPrices(book)).toEqual([{ selectionId: "a", price: 1.9 }, { selectionId: "b", price: null }])
  })
})
