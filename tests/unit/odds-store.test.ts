import { describe, expect, it, vi } from "vitest"
import type { MarketBook } from "../../src/schema/betting.ts"
import { applyOdds, odds } from "../../src/services/odds.ts"

const book = (marketId: string, version: number, back: number, status: MarketBook["status"] = "OPEN"): MarketBook => ({
  marketId,
  eventId: "e1",
  marketType: "EXCHANGE",
  status,
  inPlay: false,
  runners: [{ selectionId: "a", back: [{ price: back, size: 100 }], lay: [{ price: back + 0.02, size: 100 }] }],
  version
})

describe("the client's odds store", () => {
  it("keeps the latest book of each market and tells only that market's subscribers", () => {
    const one = vi.fn()
    const two = vi.fn()
    const stopOne = odds.subscribeMarket("m1", one)
    odds.subscribeMarket("m2", two)
    applyOdds({ markets: [book("m1", 1, 2)] })
    expect(odds.level("m1", "a", "back")).toEqual({ price: 2, size: 100 })
    expect(odds.level("m1", "a", "lay")).toEqual({ price: 2.02, size: 100 })
    expect(one).toHaveBeenCalledTimes(1)
    expect(two).not.toHaveBeenCalled()
    stopOne()
    applyOdds({ markets: [book("m1", 2, 2.1)] })
    expect(one).toHaveBeenCalledTimes(1)
    expect(odds.book("m1")?.version).toBe(2)
  })

  it("drops a book older than the one it has (a late batch never rolls a price back)", () => {
    applyOdds({ markets: [book("m3", 5, 3)] })
    applyOdds({ markets: [book("m3", 4, 2.5)] })
    expect(odds.level("m3", "a", "back")?.price).toBe(3)
    // A status change with the same version still lands (an operator's suspension).
    applyOdds({ markets: [book("m3", 5, 3, "SUSPENDED")] })
    expect(odds.book("m3")?.status).toBe("SUSPENDED")
  })

  it("keeps scores per event", () => {
    const listener = vi.fn()
    odds.subscribeScore("e9", listener)
    applyOdds({ scores: [{ eventId: "e9", sportCode: "1", home: "A 1", away: "B 0", summary: "1 - 0", clock: "12'", status: "live" }] })
    expect(odds.score("e9")?.summary).toBe("1 - 0")
    expect(listener).toHaveBeenCalledTimes(1)
  })
})
