import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { betResult, type Position } from "../../src/domain/betting.ts"
import { wageringOfBet, wageringOfMarket } from "../../src/domain/bonus.ts"
import type { MarketType } from "../../src/schema/sports.ts"

const runners = ["a", "b", "c"]
const stake = fc.integer({ min: 100, max: 5_000_000 })
const side = fc.constantFrom("back" as const, "lay" as const)
const exchangeBet = fc.record({ selectionId: fc.constantFrom(...runners), side, odds: fc.integer({ min: 101, max: 5_000 }).map((h) => h / 100), stake })
const bookmakerBet = fc.record({ selectionId: fc.constantFrom(...runners), side, odds: fc.integer({ min: 1, max: 50_000 }).map((h) => h / 100), stake })
const fancyBet = fc.record({
  selectionId: fc.constant("f"),
  side,
  odds: fc.integer({ min: 0, max: 60 }),
  stake,
  size: fc.integer({ min: 1, max: 40_000 }).map((h) => h / 100)
})

/** A market with a sequence of bets, as a player could place them. */
const market = fc.oneof(
  fc.record({ type: fc.constant<MarketType>("EXCHANGE"), bets: fc.array(exchangeBet, { minLength: 1, maxLength: 12 }) }),
  fc.record({ type: fc.constant<MarketType>("BOOKMAKER"), bets: fc.array(bookmakerBet, { minLength: 1, maxLength: 12 }) }),
  fc.record({ type: fc.constant<MarketType>("FANCY"), bets: fc.array(fancyBet, { minLength: 1, maxLength: 12 }) })
)

/**
 * The real risk of a position, found the slow way: play out every way the
 * market can end and take the worst. Exchange and bookmaker: each runner
 * winning. Fancy: every final score from 0 to past the highest line.
 */
const realRisk = (type: MarketType, bets: ReadonlyArray<Position>) => {
  const endings: Array<(bet: Position) => boolean> = type === "FANCY"
    ? Array.from({ length: 70 }, (_, runs) => (bet: Position) => runs >= bet.odds)
    : runners.map((winner) => (bet: Position) => bet.selectionId === winner)
  const worst = Math.min(...endings.map((happens) => bets.reduce((total, bet) => total + betResult(type, bet, happens(bet)), 0)))
  return Math.max(0, -worst)
}

/** Wagering a sequence of bets counts, bet by bet, as settlement adds it up. */
const counted = (type: MarketType, bets: ReadonlyArray<Position>) =>
  bets.reduce((total, bet, i) => total + wageringOfBet(type, runners, bets.slice(0, i), bet), 0)

describe("bonus wagering counts only what is really at risk", () => {
  it("no sequence of bets, over any markets, reaches a requirement with less real risk than it", () => {
    fc.assert(
      fc.property(fc.array(market, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 50_000_000 }), (markets, requirement) => {
        const wagered = markets.reduce((total, m) => total + wageringOfMarket(m.type, runners, m.bets), 0)
        const risked = markets.reduce((total, m) => total + realRisk(m.type, m.bets), 0)
        return wagered < requirement || risked >= requirement
      }),
      { numRuns: 500 }
    )
  })

  it("a settled market counts exactly its worst-case loss: the sum of what each bet added", () => {
    fc.assert(
      fc.property(market, (m) => {
        const total = wageringOfMarket(m.type, runners, m.bets)
        expect(total).toBe(realRisk(m.type, m.bets))
        expect(counted(m.type, m.bets)).toBe(total)
        expect(total).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: 500 }
    )
  })

  it("a back counts its stake, a lay its liability, and a hedge adds nothing", () => {
    fc.assert(
      fc.property(exchangeBet, (bet) => {
        const alone = wageringOfMarket("EXCHANGE", runners, [bet])
        const liability = bet.side === "back" ? bet.stake : Math.round((bet.stake * (Math.round(bet.odds * 100) - 100)) / 100)
        expect(alone).toBe(liability)
        // The exact opposite bet at the same price leaves nothing at risk.
        const opposite: Position = { ...bet, side: bet.side === "back" ? "lay" : "back" }
        expect(wageringOfBet("EXCHANGE", runners, [bet], opposite)).toBeLessThanOrEqual(0)
        expect(wageringOfMarket("EXCHANGE", runners, [bet, opposite])).toBe(0)
      })
    )
  })

  it("counts about 1 % for the back-and-lay pair of the report, and nothing more for repeating it", () => {
    const back: Position = { selectionId: "a", side: "back", odds: 2.0, stake: 1_000_00 }
    const lay: Position = { selectionId: "a", side: "lay", odds: 2.02, stake: 1_000_00 }
    // The pair risks ₹20 of ₹2,000 staked: that is what counts, not the stakes.
    expect(wageringOfMarket("EXCHANGE", ["a", "b"], [back, lay])).toBe(20_00)
    // Back, lay, back, lay… counts the risk left at the end, not each back again.
    const cycled = [back, lay, back, lay, back, lay]
    expect(wageringOfMarket("EXCHANGE", ["a", "b"], cycled)).toBe(60_00)
  })
})
