import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fancyOutcome, marketExposure, type Position, runnerOutcome } from "../../src/domain/betting.ts"
import { bandLabel, fancyHouseBook, houseLiability, marketRisk, runnerHouseBook } from "../../src/domain/risk.ts"

const RUNNERS = [{ selectionId: "h", name: "Home" }, { selectionId: "a", name: "Away" }, { selectionId: "d", name: "Draw" }]

describe("the house's book", () => {
  it("is what the house wins or loses on each runner: minus the players' results", () => {
    // ₹100 backed on Home at 2.50 and ₹200 laid on Away at 3.00 (the layer risks ₹400).
    const bets: Array<Position> = [
      { selectionId: "h", side: "back", odds: 2.5, stake: 100_00 },
      { selectionId: "a", side: "lay", odds: 3, stake: 200_00 }
    ]
    expect(runnerHouseBook("EXCHANGE", RUNNERS, bets)).toEqual([
      { selectionId: "h", name: "Home", house: -150_00 - 200_00 },
      { selectionId: "a", name: "Away", house: 100_00 + 400_00 },
      { selectionId: "d", name: "Draw", house: 100_00 - 200_00 }
    ])
    expect(marketRisk("EXCHANGE", RUNNERS, bets).liability).toBe(350_00)
    expect(marketRisk("EXCHANGE", RUNNERS, []).liability).toBe(0)
  })

  it("splits a fancy into result bands at its lines", () => {
    // Yes 45 at 100 for ₹100; No 50 at 90 for ₹100 (the No risks ₹90).
    const bets: Array<Position> = [
      { selectionId: "f", side: "back", odds: 45, size: 100, stake: 100_00 },
      { selectionId: "f", side: "lay", odds: 50, size: 90, stake: 100_00 }
    ]
    const bands = fancyHouseBook(bets)
    expect(bands).toEqual([
      { from: 0, to: 44, house: 100_00 - 100_00 },
      { from: 45, to: 49, house: -100_00 - 100_00 },
      { from: 50, to: null, house: -100_00 + 90_00 }
    ])
    expect(bands.map(bandLabel)).toEqual(["0–44", "45–49", "50+"])
    expect(houseLiability(bands.map((b) => b.house))).toBe(200_00)
    expect(fancyHouseBook([])).toEqual([])
  })

  const position = (selections: ReadonlyArray<string>) =>
    fc.record({
      selectionId: fc.constantFrom(...selections),
      side: fc.constantFrom("back" as const, "lay" as const),
      odds: fc.integer({ min: 101, max: 5000 }).map((h) => h / 100),
      stake: fc.integer({ min: 100, max: 10_000_000 })
    })

  it("settles to what settlement pays: for every winner the house gets minus the players' net", () => {
    fc.assert(fc.property(fc.array(fc.array(position(["h", "a", "d"]), { maxLength: 6 }), { maxLength: 5 }), fc.constantFrom("h", "a", "d"), (players, winner) => {
      const all = players.flat()
      const line = runnerHouseBook("EXCHANGE", RUNNERS, all).find((l) => l.selectionId === winner)!
      const paid = players.reduce((sum, bets) => sum + bets.reduce((s, bet) => s + runnerOutcome("EXCHANGE", bet, winner), 0), 0)
      expect(line.house).toBe(0 - paid)
      // The house's worst case is the players' best, and never below what one player alone can win.
      expect(marketRisk("EXCHANGE", RUNNERS, all).liability).toBe(Math.max(0, ...RUNNERS.map((r) => all.reduce((s, bet) => s + runnerOutcome("EXCHANGE", bet, r.selectionId), 0))))
      expect(marketRisk("EXCHANGE", RUNNERS, all).liability).toBe(all.length === 0 ? 0 : marketExposure("EXCHANGE", ["h", "a", "d"], all.map((b) => ({ ...b, side: b.side === "back" ? "lay" as const : "back" as const }))))
    }))
  })

  it("gives every fancy result the house's figure of its band", () => {
    const fancy = fc.record({
      selectionId: fc.constant("f"),
      side: fc.constantFrom("back" as const, "lay" as const),
      odds: fc.integer({ min: 0, max: 200 }),
      size: fc.integer({ min: 50, max: 150 }),
      stake: fc.integer({ min: 100, max: 1_000_000 })
    })
    fc.assert(fc.property(fc.array(fancy, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 260 }), (bets, result) => {
      const band = fancyHouseBook(bets).find((b) => b.from <= result && (b.to === null || result <= b.to))!
      expect(band.house).toBe(0 - bets.reduce((s, bet) => s + fancyOutcome(bet, result), 0))
    }))
  })
})

describe("the desk's market rules", () => {
  it("asks for what each command needs before it is sent", async () => {
    const { MARKET_RULES } = await import("../../src/domain/risk.ts")
    expect(MARKET_RULES.settle({})).toMatch(/Choose the winner/)
    expect(MARKET_RULES.settle({ result: "123" })).toBeUndefined()
    expect(MARKET_RULES.void({ reason: " " })).toMatch(/Say why/)
    expect(MARKET_RULES.price({ selection: "1", back: "abc" })).toMatch(/back or a lay/)
    expect(MARKET_RULES.price({ selection: "1", lay: "2.02" })).toBeUndefined()
    expect(MARKET_RULES.approve({ approval: "a1" })).toBeUndefined()
  })
})
