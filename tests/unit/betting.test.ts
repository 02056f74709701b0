import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  backProfit,
  betResult,
  exposureChange,
  fancyBook,
  fancyOutcome,
  isSameOrBetter,
  liabilityOf,
  marketExposure,
  outcomes,
  type Position,
  runnerBook,
  runnerOutcome,
  slipFigures,
  validPrice,
  winAmount
} from "../../src/domain/betting.ts"

const stake = fc.integer({ min: 1, max: 10_000_000 })
const exchangeOdds = fc.integer({ min: 101, max: 100_000 }).map((h) => h / 100)
const bookmakerRate = fc.integer({ min: 1, max: 50_000 }).map((h) => h / 100)
const fancyLine = fc.integer({ min: 0, max: 300 })
const fancySize = fc.integer({ min: 1, max: 40_000 }).map((h) => h / 100)
const side = fc.constantFrom("back" as const, "lay" as const)
const runners = ["r1", "r2", "r3"]
const runner = fc.constantFrom(...runners)

const exchangeBet = fc.record({ selectionId: runner, side, odds: exchangeOdds, stake })
const bookmakerBet = fc.record({ selectionId: runner, side, odds: bookmakerRate, stake })
const fancyBet = fc.record({ selectionId: fc.constant("f"), side, odds: fancyLine, stake, size: fancySize })

describe("profit formulas (SPEC section 9)", () => {
  it("exchange back: (odds - 1) x stake", () => {
    expect(backProfit("EXCHANGE", 1.85, 10_000)).toBe(8_500)
    expect(backProfit("EXCHANGE", 2, 100_00)).toBe(100_00)
    fc.assert(fc.property(exchangeOdds, stake, (odds, s) => Math.abs(backProfit("EXCHANGE", odds, s) - (odds - 1) * s) <= 0.5 + 1e-6))
  })

  it("bookmaker: odds / 100 x stake", () => {
    expect(backProfit("BOOKMAKER", 85, 100_000)).toBe(85_000)
    fc.assert(fc.property(bookmakerRate, stake, (rate, s) => Math.abs(backProfit("BOOKMAKER", rate, s) - (rate / 100) * s) <= 0.5 + 1e-6))
  })

  it("fancy: stake x size / 100", () => {
    expect(backProfit("FANCY", 45, 100_000, 90)).toBe(90_000)
    fc.assert(fc.property(fancyLine, fancySize, stake, (line, size, s) => Math.abs(backProfit("FANCY", line, s, size) - (s * size) / 100) <= 0.5 + 1e-6))
  })

  it("lay mirrors back: the backer's profit is the layer's liability and the stake is what the layer wins", () => {
    const typed = fc.oneof(fc.tuple(exchangeBet, fc.constant("EXCHANGE" as const)), fc.tuple(bookmakerBet, fc.constant("BOOKMAKER" as const)))
    fc.assert(fc.property(typed, ([bet, type]) => {
      const back: Position = { ...bet, side: "back" }
      const lay: Position = { ...bet, side: "lay" }
      expect(liabilityOf(type, lay)).toBe(winAmount(type, back))
      expect(winAmount(type, lay)).toBe(liabilityOf(type, back))
      // Back and lay on the same thing are a zero-sum pair in every outcome.
      for (const winner of runners) expect(runnerOutcome(type, back, winner) + runnerOutcome(type, lay, winner)).toBe(0)
    }))
    fc.assert(fc.property(fancyBet, fc.integer({ min: 0, max: 400 }), (bet, result) => {
      expect(fancyOutcome({ ...bet, side: "back" }, result) + fancyOutcome({ ...bet, side: "lay" }, result)).toBe(0)
    }))
  })

  it("slip figures are the win amount and the liability", () => {
    expect(slipFigures("EXCHANGE", { selectionId: "a", side: "lay", odds: 3, stake: 10_000 })).toEqual({ profit: 10_000, liability: 20_000 })
    expect(slipFigures("FANCY", { selectionId: "f", side: "back", odds: 45, stake: 10_000, size: 110 })).toEqual({ profit: 11_000, liability: 10_000 })
  })
})

describe("books and exposure", () => {
  it("a back bet wins its profit on its runner and loses its stake on the others", () => {
    const book = runnerBook("EXCHANGE", runners, [{ selectionId: "r1", side: "back", odds: 2.5, stake: 10_000 }])
    expect(Object.fromEntries(book)).toEqual({ r1: 15_000, r2: -10_000, r3: -10_000 })
    expect(marketExposure("EXCHANGE", runners, [{ selectionId: "r1", side: "back", odds: 2.5, stake: 10_000 }])).toBe(10_000)
  })

  it("a lay bet loses its liability on its runner and wins the stake on the others", () => {
    const bets: Array<Position> = [{ selectionId: "r2", side: "lay", odds: 4, stake: 10_000 }]
    expect(Object.fromEntries(runnerBook("EXCHANGE", runners, bets))).toEqual({ r1: 10_000, r2: -30_000, r3: 10_000 })
    expect(marketExposure("EXCHANGE", runners, bets)).toBe(30_000)
  })

  it("exposure is the worst outcome over the runners, never negative, for any mix of back and lay", () => {
    const typed = fc.oneof(
      fc.tuple(fc.constant("EXCHANGE" as const), fc.array(exchangeBet, { maxLength: 12 })),
      fc.tuple(fc.constant("BOOKMAKER" as const), fc.array(bookmakerBet, { maxLength: 12 }))
    )
    fc.assert(fc.property(typed, ([type, bets]) => {
      const book = runnerBook(type, runners, bets)
      const exposure = marketExposure(type, runners, bets)
      expect(exposure).toBeGreaterThanOrEqual(0)
      expect(exposure).toBe(Math.max(0, -Math.min(...book.values())))
      // Never more than the sum of each bet's own liability.
      expect(exposure).toBeLessThanOrEqual(bets.reduce((sum, bet) => sum + liabilityOf(type, bet), 0))
    }))
  })

  it("a hedge reduces risk: laying what was backed at lower odds cuts the exposure, and is accepted (change <= 0)", () => {
    const back: Position = { selectionId: "r1", side: "back", odds: 3, stake: 10_000 }
    const hedge: Position = { selectionId: "r1", side: "lay", odds: 2, stake: 10_000 }
    expect(exposureChange("EXCHANGE", runners, [back], hedge)).toBeLessThanOrEqual(0)
    expect(marketExposure("EXCHANGE", runners, [back, hedge])).toBe(0)
    fc.assert(fc.property(exchangeBet, (bet) => {
      // The exact opposite bet always brings the market back to no risk.
      const opposite: Position = { ...bet, side: bet.side === "back" ? "lay" : "back" }
      expect(exposureChange("EXCHANGE", runners, [bet], opposite) + marketExposure("EXCHANGE", runners, [bet])).toBe(0)
    }))
  })

  it("settling pays exactly the projected P/L of the winning runner", () => {
    fc.assert(fc.property(fc.array(exchangeBet, { minLength: 1, maxLength: 10 }), runner, (bets, winner) => {
      const paid = bets.reduce((sum, bet) => sum + runnerOutcome("EXCHANGE", bet, winner), 0)
      expect(paid).toBe(runnerBook("EXCHANGE", runners, bets).get(winner))
      expect(paid).toBeGreaterThanOrEqual(-marketExposure("EXCHANGE", runners, bets))
    }))
  })
})

describe("fancy", () => {
  it("'Yes' wins when the result reaches the line, 'No' when it does not", () => {
    const yes: Position = { selectionId: "f", side: "back", odds: 45, stake: 10_000, size: 100 }
    const no: Position = { selectionId: "f", side: "lay", odds: 45, stake: 10_000, size: 100 }
    expect(fancyOutcome(yes, 45)).toBe(10_000)
    expect(fancyOutcome(yes, 44)).toBe(-10_000)
    expect(fancyOutcome(no, 44)).toBe(10_000)
    expect(fancyOutcome(no, 45)).toBe(-10_000)
  })

  it("the book runs from the lowest line - 5 to the highest line + 5", () => {
    const bets: Array<Position> = [
      { selectionId: "f", side: "back", odds: 45, stake: 10_000, size: 100 },
      { selectionId: "f", side: "lay", odds: 50, stake: 10_000, size: 100 }
    ]
    const book = fancyBook(bets)
    expect(book[0]!.result).toBe(40)
    expect(book.at(-1)!.result).toBe(55)
    // Between the lines both bets win: the "middle".
    expect(book.find((row) => row.result === 47)!.pl).toBe(20_000)
    expect(book.find((row) => row.result === 44)!.pl).toBe(0)
    expect(book.find((row) => row.result === 50)!.pl).toBe(0)
    expect(marketExposure("FANCY", [], bets)).toBe(0)
  })

  it("exposure is the worst result band and agrees with every row of the book", () => {
    fc.assert(fc.property(fc.array(fancyBet, { minLength: 1, maxLength: 10 }), (bets) => {
      const exposure = marketExposure("FANCY", [], bets)
      const book = fancyBook(bets)
      for (const row of book) expect(row.pl).toBeGreaterThanOrEqual(-exposure)
      // The worst band is somewhere on the book (it covers every line).
      expect(Math.min(0, ...book.map((row) => row.pl)) + exposure).toBe(0)
      // Any result at all, far outside the book, is within the exposure too.
      for (const result of [0, 1000]) expect(bets.reduce((sum, bet) => sum + fancyOutcome(bet, result), 0)).toBeGreaterThanOrEqual(-exposure)
      expect(outcomes("FANCY", [], bets).length).toBeGreaterThan(0)
    }))
  })
})

describe("the odds-change rule", () => {
  it("back accepts the same or a higher price, lay the same or a lower one", () => {
    expect(isSameOrBetter("EXCHANGE", "back", { odds: 1.9 }, { odds: 1.9 })).toBe(true)
    expect(isSameOrBetter("EXCHANGE", "back", { odds: 1.9 }, { odds: 1.95 })).toBe(true)
    expect(isSameOrBetter("EXCHANGE", "back", { odds: 1.9 }, { odds: 1.85 })).toBe(false)
    expect(isSameOrBetter("BOOKMAKER", "lay", { odds: 90 }, { odds: 88 })).toBe(true)
    expect(isSameOrBetter("BOOKMAKER", "lay", { odds: 90 }, { odds: 92 })).toBe(false)
    fc.assert(fc.property(exchangeOdds, exchangeOdds, (requested, current) => {
      const ok = isSameOrBetter("EXCHANGE", "back", { odds: requested }, { odds: current })
      // A better price for the player never pays less.
      if (ok) expect(backProfit("EXCHANGE", current, 10_000)).toBeGreaterThanOrEqual(backProfit("EXCHANGE", requested, 10_000))
    }))
  })

  it("fancy 'Yes' accepts a lower line or a higher size, 'No' a higher line or a lower size", () => {
    expect(isSameOrBetter("FANCY", "back", { odds: 45, size: 100 }, { odds: 44, size: 100 })).toBe(true)
    expect(isSameOrBetter("FANCY", "back", { odds: 45, size: 100 }, { odds: 46, size: 100 })).toBe(false)
    expect(isSameOrBetter("FANCY", "back", { odds: 45, size: 100 }, { odds: 45, size: 90 })).toBe(false)
    expect(isSameOrBetter("FANCY", "lay", { odds: 45, size: 100 }, { odds: 46, size: 100 })).toBe(true)
    expect(isSameOrBetter("FANCY", "lay", { odds: 45, size: 100 }, { odds: 45, size: 110 })).toBe(false)
  })
})

describe("prices", () => {
  it("accepts market prices and refuses nonsense", () => {
    expect(validPrice("EXCHANGE", 1.85)).toBe(true)
    expect(validPrice("EXCHANGE", 1)).toBe(false)
    expect(validPrice("EXCHANGE", 1.855)).toBe(false)
    expect(validPrice("BOOKMAKER", 85)).toBe(true)
    expect(validPrice("BOOKMAKER", 0)).toBe(false)
    expect(validPrice("FANCY", 45, 100)).toBe(true)
    expect(validPrice("FANCY", 45.5, 100)).toBe(false)
    expect(validPrice("FANCY", 45)).toBe(false)
    expect(betResult("EXCHANGE", { selectionId: "a", side: "back", odds: 2, stake: 100 }, true)).toBe(100)
  })
})
