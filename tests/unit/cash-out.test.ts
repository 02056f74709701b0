import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { runnerBook, type Position } from "../../src/domain/betting.ts"
import { autoRuleProblem, type CashOutQuote, earlierCashOut, quoteCashOut, type RunnerOffers } from "../../src/domain/cashOut.ts"

const INDIA = "india"
const AUS = "australia"
const runners = [INDIA, AUS]
/** Plenty at every level. */
const deep = (back: number, lay: number, size = 10_000_000): RunnerOffers => ({
  selectionId: INDIA,
  back: [{ price: back, size }],
  lay: [{ price: lay, size }]
})
const quoted = (result: ReturnType<typeof quoteCashOut>): CashOutQuote => {
  if (typeof result === "string") throw new Error(`no quote: ${result}`)
  return result
}
const afterOf = (quote: CashOutQuote) => quote.perRunner.map((r) => r.after)

describe("cash out: the worked examples of the issue", () => {
  // Back India ₹1,000 @ 2.50: +₹1,500 if India wins, −₹1,000 if not.
  const position: Array<Position> = [{ selectionId: INDIA, side: "back", odds: 2.5, stake: 100_000 }]
  const other: RunnerOffers = { selectionId: AUS, back: [], lay: [] }

  it("India now 1.80 / 1.82 with enough at 1.82: lays India, locking +₹373.62 whatever wins", () => {
    const quote = quoted(quoteCashOut("EXCHANGE", runners, position, [deep(1.8, 1.82), other]))
    expect(quote.hedges).toEqual([{ selectionId: INDIA, side: "lay", matches: [{ odds: 1.82, stake: 137_363 }] }])
    expect(afterOf(quote)).toEqual([37_362, 37_363])
    expect(quote.value).toBe(37_362)
  })

  it("only ₹800 at 1.82 and the rest at 1.84: the hedge walks the ladder, locking +₹367.39", () => {
    const ladder: RunnerOffers = { selectionId: INDIA, back: [{ price: 1.8, size: 1_000_000 }], lay: [{ price: 1.82, size: 80_000 }, { price: 1.84, size: 1_000_000 }] }
    const quote = quoted(quoteCashOut("EXCHANGE", runners, position, [ladder, other]))
    expect(quote.hedges[0]!.matches).toEqual([{ odds: 1.82, stake: 80_000 }, { odds: 1.84, stake: 56_739 }])
    expect(quote.value).toBe(36_739)
    expect(Math.max(...afterOf(quote)) - Math.min(...afterOf(quote))).toBeLessThanOrEqual(1)
  })

  it("half of it: half the hedge, half the value locked and half the position kept", () => {
    const full = quoted(quoteCashOut("EXCHANGE", runners, position, [deep(1.8, 1.82), other]))
    const half = quoted(quoteCashOut("EXCHANGE", runners, position, [deep(1.8, 1.82), other], 0.5))
    expect(half.hedges[0]!.matches).toEqual([{ odds: 1.82, stake: Math.round(137_363 / 2) }])
    // India wins: half of +1,500 kept plus half of 373.62 locked; Australia: half of −1,000 plus the same.
    for (const [i, v] of afterOf(half).entries()) expect(Math.abs(v - ((i === 0 ? 150_000 : -100_000) / 2 + full.value / 2))).toBeLessThanOrEqual(1)
    // Its value is what the half cashed out locks: half of +373.62, to the paisa the rounded stake allows.
    expect(half.value).toBe(18_681)
  })

  it("a bookmaker market hedges at its rate per 100", () => {
    // Back India at 150 per 100 (₹1,000 wins ₹1,500); India now lays at 82 per 100 (decimal 1.82).
    const bookPosition: Array<Position> = [{ selectionId: INDIA, side: "back", odds: 150, stake: 100_000 }]
    const quote = quoted(quoteCashOut("BOOKMAKER", runners, bookPosition, [{ selectionId: INDIA, back: [{ price: 80, size: 100 }], lay: [{ price: 82, size: 100 }] }, other]))
    expect(quote.value).toBe(37_362)
  })

  it("fancy is not cashed out; a flat position has nothing to cash out; a thin ladder gives no quote", () => {
    expect(quoteCashOut("FANCY", ["f"], [{ selectionId: "f", side: "back", odds: 45, stake: 100, size: 90 }], [])).toBe("fancy")
    expect(quoteCashOut("EXCHANGE", runners, [], [deep(1.8, 1.82), other])).toBe("flat")
    expect(quoteCashOut("EXCHANGE", runners, position, [deep(1.8, 1.82, 1_000), other])).toBe("notEnoughOnOffer")
  })
})

describe("cash out: properties", () => {
  const price = fc.integer({ min: 101, max: 1_000 }).map((h) => h / 100)
  const level = fc.record({ price, size: fc.integer({ min: 1, max: 5_000_000 }) })
  const ladderOf = (id: string) =>
    fc.record({ back: fc.array(level, { minLength: 1, maxLength: 3 }), lay: fc.array(level, { minLength: 1, maxLength: 3 }) }).map((l): RunnerOffers => ({
      selectionId: id,
      back: [...l.back].sort((a, b) => b.price - a.price),
      lay: [...l.lay].sort((a, b) => a.price - b.price)
    }))
  const ids = ["a", "b", "c"]
  const bet = fc.record({ selectionId: fc.constantFrom(...ids), side: fc.constantFrom("back" as const, "lay" as const), odds: price, stake: fc.integer({ min: 100, max: 1_000_000 }) })
  const world = fc.record({ bets: fc.array(bet, { minLength: 1, maxLength: 5 }), ladders: fc.tuple(ladderOf("a"), ladderOf("b"), ladderOf("c")) })

  // Stakes are whole paise: a paisa more or less of a hedge at odds d moves its runner's P/L by d paise, so the
  // runners can differ by up to half of d per part (within a paisa at evens, more at long odds), never more.
  it("a full cash out leaves every runner's P/L equal up to the paise of its stakes, and the value is the least of them", () => {
    fc.assert(fc.property(world, ({ bets, ladders }) => {
      const quote = quoteCashOut("EXCHANGE", ids, bets, ladders)
      if (typeof quote === "string") return
      const after = afterOf(quote)
      const slack = quote.hedges.reduce((sum, h) => sum + h.matches.reduce((s, m) => s + m.odds / 2 + 1, 0), 0)
      expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(slack)
      expect(quote.value).toBe(Math.min(...after))
      // Settlement counts the same: the position plus the hedges, runner by runner.
      const book = runnerBook("EXCHANGE", ids, [...bets, ...quote.hedges.flatMap((h) => h.matches.map((m) => ({ selectionId: h.selectionId, side: h.side, odds: m.odds, stake: m.stake })))])
      expect(after).toEqual(ids.map((id) => book.get(id)))
    }))
  })

  it("never takes more than a level offers, nor at a price the ladder does not show", () => {
    fc.assert(fc.property(world, ({ bets, ladders }) => {
      const quote = quoteCashOut("EXCHANGE", ids, bets, ladders)
      if (typeof quote === "string") return
      for (const hedge of quote.hedges) {
        const offers = ladders.find((l) => l.selectionId === hedge.selectionId)![hedge.side]
        for (const match of hedge.matches) {
          const offered = offers.filter((o) => o.price === match.odds).reduce((sum, o) => sum + o.size, 0)
          expect(match.stake).toBeLessThanOrEqual(offered)
        }
      }
    }))
  })

  it("a part of it is that part of the full hedge", () => {
    fc.assert(fc.property(world, fc.integer({ min: 1, max: 100 }), ({ bets, ladders }, percent) => {
      const full = quoteCashOut("EXCHANGE", ids, bets, ladders)
      const part = quoteCashOut("EXCHANGE", ids, bets, ladders, percent / 100)
      if (typeof full === "string") return
      if (typeof part === "string") throw new Error(part)
      const stakes = (q: CashOutQuote) => q.hedges.flatMap((h) => h.matches.map((m) => m.stake))
      const scaled = stakes(full).map((s) => Math.round(s * (percent / 100))).filter((s) => s > 0)
      expect(stakes(part)).toEqual(scaled)
      // It locks that part of the full value: f·G, up to the half paisa each rounded stake moves a runner at its odds.
      const slack = full.hedges.reduce((sum, h) => sum + h.matches.reduce((s, m) => s + m.odds / 2 + 1, 0), 0)
      expect(Math.abs(part.value - (full.value * percent) / 100)).toBeLessThanOrEqual(slack)
    }))
  })
})

describe("cash out: what earlier cash outs left in a position", () => {
  /** A matched bet as the market's open bets list it (rupees), at a minute of the day. */
  const listed = (minute: number, selectionType: "back" | "lay", odds: number, stake: number, cashOut?: boolean) => ({
    selectionId: INDIA, selectionType, odds, oddsSize: null, unmatched: 0, matches: [{ odds, stake }],
    createdAt: `2026-11-29T10:${String(minute).padStart(2, "0")}:00.000Z`, ...(cashOut ? { cashOut } : {})
  })
  // Back India ₹1,000 @ 2.50, all of it cashed out by laying ₹1,373.63 @ 1.82: +₹373.62 locked (the worked example).
  const backed = listed(0, "back", 2.5, 1000)
  const hedge = listed(5, "lay", 1.82, 1373.63, true)

  it("none before a cash out; after a full one, what it locked, whatever is bet since", () => {
    expect(earlierCashOut("EXCHANGE", runners, [backed])).toBeUndefined()
    expect(earlierCashOut("EXCHANGE", runners, [backed, hedge])).toBe(37_362)
    expect(earlierCashOut("EXCHANGE", runners, [backed, hedge, listed(9, "back", 2.5, 100)])).toBe(37_362)
  })

  it("a part cashed out leaves the rest open: no amount to tell", () => {
    expect(earlierCashOut("EXCHANGE", runners, [backed, listed(5, "lay", 1.82, 686.82, true)])).toBe("part")
  })
})

describe("auto cash out rules", () => {
  it("takes whole paise and a floor below the target; says why otherwise, as the server does", () => {
    expect(autoRuleProblem({ target: 450, floor: -200.5 })).toBeUndefined()
    expect(autoRuleProblem({ target: null, floor: null })).toBeUndefined()
    expect(autoRuleProblem({ target: 100, floor: 200 })).toBe("The stop-loss floor must be below the take-profit target.")
    expect(autoRuleProblem({ target: 100, floor: 100 })).toBe("The stop-loss floor must be below the take-profit target.")
    for (const bad of [1.234, Number.NaN, Number.POSITIVE_INFINITY]) expect(autoRuleProblem({ target: bad, floor: null })).toBe("Auto cash out amounts are rupees with at most two decimals.")
  })
})
