import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { betResult, type Position } from "../../src/domain/betting.ts"
import { exposureAcross, type OutcomeMarket, outcomesOf, outcomeSpaceOf, wageringOfBet, wageringOfEvent, wageringOfMarket } from "../../src/domain/bonus.ts"
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

/** A match's Match Odds (three outcomes) and Bookmaker market (two: a draw voids it), with their own selection ids. */
const OUTCOMES = ["home", "away", "draw"]
const matchOdds = { type: "EXCHANGE" as const, runners: OUTCOMES.map((outcome, i) => ({ selectionId: `mo${i}`, outcome })) }
const bookmaker = { type: "BOOKMAKER" as const, runners: OUTCOMES.slice(0, 2).map((outcome, i) => ({ selectionId: `bm${i}`, outcome })) }

/** A bet of either wallet: `covered` when the bonus's terms cover it. */
const covered = fc.boolean()
const moBet = fc.record({ selectionId: fc.constantFrom("mo0", "mo1", "mo2"), side, odds: fc.integer({ min: 101, max: 2_000 }).map((h) => h / 100), stake, covered })
const bmBet = fc.record({ selectionId: fc.constantFrom("bm0", "bm1"), side, odds: fc.integer({ min: 1, max: 50_000 }).map((h) => h / 100), stake, covered })

/** The real risk of bets over the match's markets, the slow way: every outcome played out in every market (a market without it voided). */
const riskAcross = (markets: ReadonlyArray<OutcomeMarket>) => {
  const results = OUTCOMES.map((outcome) =>
    markets.reduce((total, market) => {
      const winner = market.runners.find((r) => r.outcome === outcome)
      return winner ? total + market.bets.reduce((sum, bet) => sum + betResult(market.type, bet, bet.selectionId === winner.selectionId), 0) : total
    }, 0)
  )
  return Math.max(0, -Math.min(...results))
}

/** The two markets with the player's bets; `draw: false` for a sport without a draw (cricket). */
const event = (mo: ReadonlyArray<Position & { covered: boolean }>, bm: ReadonlyArray<Position & { covered: boolean }>, { draw = true } = {}) => [
  { ...matchOdds, runners: draw ? matchOdds.runners : matchOdds.runners.slice(0, 2), bets: mo, covered: mo.filter((bet) => bet.covered) },
  { ...bookmaker, bets: bm, covered: bm.filter((bet) => bet.covered) }
]

describe("wagering counts the markets of one outcome together", () => {
  it("knows which markets settle on the same outcomes: Match Odds and Bookmaker on the result, a goals line on its own, a fancy alone", () => {
    expect(outcomeSpaceOf({ name: "Match Odds", marketType: "EXCHANGE" })).toBe(outcomeSpaceOf({ name: "Bookmaker", marketType: "BOOKMAKER" }))
    expect(outcomeSpaceOf({ name: "Over/Under 2.5 Goals", marketType: "EXCHANGE" })).not.toBe(outcomeSpaceOf({ name: "Match Odds", marketType: "EXCHANGE" }))
    expect(outcomeSpaceOf({ name: "6 Over Runs MI", marketType: "FANCY" })).toBeUndefined()
    // Runners by position: the home side of Match Odds is the home side of the Bookmaker market, whatever their ids.
    const [mo, bm] = [["mo-1", "mo-2"], ["bm-1", "bm-2"]].map((ids, m) =>
      outcomesOf({ name: m === 0 ? "Match Odds" : "Bookmaker", marketType: m === 0 ? "EXCHANGE" : "BOOKMAKER", runners: ids.map((selectionId, i) => ({ selectionId, name: ["India", "Australia"][i]! })) })
    )
    expect(mo!.map((r) => r.outcome)).toEqual(bm!.map((r) => r.outcome))
  })

  it("counts no more than the risk really taken, by the covered bets or by all: any bets on both markets, from either wallet", () => {
    fc.assert(
      fc.property(fc.array(moBet, { maxLength: 8 }), fc.array(bmBet, { maxLength: 8 }), (mo, bm) => {
        const markets = event(mo, bm)
        const all = riskAcross(markets)
        const ofCovered = riskAcross(markets.map((m) => ({ ...m, bets: m.covered })))
        expect(exposureAcross(markets)).toBe(all)
        const counted = wageringOfEvent(markets)
        expect(counted).toBe(Math.min(all, ofCovered))
        // Never more than market by market (the old rule), never below nothing.
        const byMarket = wageringOfMarket("EXCHANGE", ["mo0", "mo1", "mo2"], markets[0]!.covered) + wageringOfMarket("BOOKMAKER", ["bm0", "bm1"], markets[1]!.covered)
        expect(counted).toBeLessThanOrEqual(byMarket)
        expect(counted).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: 500 }
    )
  })

  const bonus = (bet: Position) => ({ ...bet, covered: true })
  const main = (bet: Position) => ({ ...bet, covered: false })

  it("counts every hedge the review tried as the risk left: cross-market backs, back and lay across markets, a cash out", () => {
    // Match Odds India 1.37 / Australia 3.45 beside a Bookmaker offering India at 237: backing both sides wins either way.
    const crossBacks = event([bonus({ selectionId: "mo1", side: "back", odds: 3.45, stake: 2_000_00 })], [bonus({ selectionId: "bm0", side: "back", odds: 237, stake: 3_000_00 })], { draw: false })
    expect(riskAcross(crossBacks)).toBe(0)
    expect(wageringOfEvent(crossBacks)).toBe(0)
    // Market by market it counted the ₹5,000 staked.
    expect(wageringOfMarket("EXCHANGE", ["mo0", "mo1", "mo2"], crossBacks[0]!.bets) + wageringOfMarket("BOOKMAKER", ["bm0", "bm1"], crossBacks[1]!.bets)).toBe(5_000_00)

    // A back on Match Odds laid off in the Bookmaker market (a cricket match, no draw): the ₹20 between the prices is at risk.
    const backLay = event([bonus({ selectionId: "mo0", side: "back", odds: 2, stake: 1_000_00 })], [bonus({ selectionId: "bm0", side: "lay", odds: 102, stake: 1_000_00 })], { draw: false })
    expect(wageringOfEvent(backLay)).toBe(20_00)
    // Where a draw voids the Bookmaker market, the back is not covered for it: it counts in full.
    expect(wageringOfEvent(event(backLay[0]!.bets.map(bonus), backLay[1]!.bets.map(bonus)))).toBe(1_000_00)

    // A cash out: backed at 3.00, laid at 1.50 once the price came in; the profit is locked whatever happens.
    const cashOut = event([bonus({ selectionId: "mo0", side: "back", odds: 3, stake: 1_000_00 }), bonus({ selectionId: "mo0", side: "lay", odds: 1.5, stake: 2_000_00 })], [])
    expect(riskAcross(cashOut)).toBe(0)
    expect(wageringOfEvent(cashOut)).toBe(0)

    // A bonus-wallet back hedged from the main wallet on the other market counts only what is left.
    const walletHedge = event([bonus({ selectionId: "mo0", side: "back", odds: 2, stake: 1_000_00 })], [main({ selectionId: "bm1", side: "back", odds: 100, stake: 1_000_00 })], { draw: false })
    expect(wageringOfEvent(walletHedge)).toBe(riskAcross(walletHedge))
    expect(wageringOfEvent(walletHedge)).toBeLessThan(1_000_00)
    // Main-wallet bets alone count nothing towards the bonus.
    expect(wageringOfEvent(event([main({ selectionId: "mo0", side: "back", odds: 2, stake: 1_000_00 })], []))).toBe(0)
  })

  it("counts a real risk in full: a back on one market, and backs on the same side of both", () => {
    expect(wageringOfEvent(event([bonus({ selectionId: "mo0", side: "back", odds: 1.37, stake: 1_000_00 })], []))).toBe(1_000_00)
    const sameSide = event([bonus({ selectionId: "mo0", side: "back", odds: 1.37, stake: 1_000_00 })], [bonus({ selectionId: "bm0", side: "back", odds: 37, stake: 500_00 })])
    expect(wageringOfEvent(sameSide)).toBe(1_500_00)
  })
})
