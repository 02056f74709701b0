import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BET_MESSAGES, type BetBook, type BetInputs, type BetMarket, decideBet, maxStakeMessage, minStakeMessage } from "../../src/domain/betDecision.ts"
import { isSameOrBetter, marketExposure, type Position } from "../../src/domain/betting.ts"
import { matchedStake, meets, positionsOf } from "../../src/domain/matching.ts"
import type { PlaceBetPayload } from "../../src/schema/betting.ts"

const inputs: BetInputs = {
  channel: "sport",
  creditPlayer: false,
  userStatus: "active",
  marketStatus: "OPEN",
  eventStatus: "scheduled",
  wallet: 1,
  positions: [],
  held: undefined
}
const runners = [{ selectionId: "a", name: "India" }, { selectionId: "b", name: "Australia" }]
const exchange: BetMarket = { marketType: "EXCHANGE", isRacing: false, runners, limits: { minStake: 10_000n, maxStake: 50_000_000n } }
const bookmaker: BetMarket = { ...exchange, marketType: "BOOKMAKER" }
const fancy: BetMarket = { ...exchange, marketType: "FANCY", runners: [{ selectionId: "f", name: "10 overs runs" }] }
const levels = (...prices: ReadonlyArray<readonly [number, number]>) => prices.map(([price, size]) => ({ price, size }))
const book = (back: ReturnType<typeof levels>, lay: ReturnType<typeof levels> = [], status = "OPEN"): BetBook => ({
  status,
  runners: [{ selectionId: "a", back, lay }, { selectionId: "b", back: [], lay: [] }, { selectionId: "f", back, lay }]
})
const payload: PlaceBetPayload = { marketId: "m", selectionId: "a", selectionType: "back", odds: 2, stake: 500 }

describe("deciding a bet (src/domain/betDecision.ts)", () => {
  it("refuses, in order, the wrong endpoint, an unknown selection, a malformed price or stake", () => {
    expect(decideBet({ ...inputs, channel: "fancy" }, exchange, book([]), payload)).toMatchObject({ reason: "Refused", message: BET_MESSAGES.wrongChannelNotFancy })
    expect(decideBet(inputs, fancy, book([]), { ...payload, selectionId: "f" })).toMatchObject({ reason: "Refused", message: BET_MESSAGES.wrongChannelFancy })
    expect(decideBet({ ...inputs, channel: "racing" }, exchange, book([]), payload)).toMatchObject({ message: BET_MESSAGES.wrongChannelNotRacing })
    expect(decideBet(inputs, { ...exchange, isRacing: true }, book([]), payload)).toMatchObject({ message: BET_MESSAGES.wrongChannelRacing })
    expect(decideBet(inputs, exchange, book([]), { ...payload, selectionId: "zz" })).toMatchObject({ message: BET_MESSAGES.unknownSelection })
    expect(decideBet(inputs, exchange, book([]), { ...payload, odds: 1.005 })).toMatchObject({ reason: "InvalidInput", message: BET_MESSAGES.badPrice })
    expect(decideBet(inputs, exchange, book([]), { ...payload, stake: 10.001 })).toMatchObject({ reason: "InvalidInput", message: BET_MESSAGES.badStake })
  })

  it("refuses an inactive account, a suspended or closed market or event, and a stake out of its limits", () => {
    const open = book(levels([2, 1_000]))
    expect(decideBet({ ...inputs, userStatus: "blocked" }, exchange, open, payload)).toMatchObject({ reason: "Refused", message: BET_MESSAGES.notPlayer })
    expect(decideBet({ ...inputs, marketStatus: "SUSPENDED" }, exchange, open, payload)).toMatchObject({ reason: "MarketSuspended" })
    expect(decideBet({ ...inputs, marketStatus: "CLOSED" }, exchange, open, payload)).toMatchObject({ reason: "MarketClosed" })
    expect(decideBet({ ...inputs, eventStatus: "finished" }, exchange, open, payload)).toMatchObject({ reason: "MarketClosed" })
    expect(decideBet(inputs, exchange, open, { ...payload, stake: 99.99 })).toEqual({ _tag: "Refused", reason: "StakeOutOfRange", message: minStakeMessage(10_000n) })
    expect(decideBet(inputs, exchange, open, { ...payload, stake: 500_000.01 })).toEqual({ _tag: "Refused", reason: "StakeOutOfRange", message: maxStakeMessage(50_000_000n) })
    // The book the feed published decides too: suspended there, or no book at all (closed).
    expect(decideBet(inputs, exchange, book(levels([2, 1_000]), [], "SUSPENDED"), payload)).toMatchObject({ reason: "MarketSuspended" })
    expect(decideBet(inputs, exchange, undefined, payload)).toMatchObject({ reason: "MarketClosed" })
  })

  it("matches an exchange bet at its price or better and leaves the rest waiting, or cancels it at once in play by choice", () => {
    const open = book(levels([2.1, 300], [2, 100], [1.9, 1_000]))
    const taken = decideBet(inputs, exchange, open, payload)
    expect(taken).toMatchObject({ _tag: "Taken", stake: 50_000, persistence: "cancel", live: false, closed: false })
    if (taken._tag !== "Taken") return
    expect(taken.parts.matches).toEqual([{ odds: 2.1, stake: 30_000 }, { odds: 2, stake: 10_000 }])
    expect(taken.parts.unmatched).toBe(10_000)
    // Best price: taken at 1.90 as well.
    const best = decideBet(inputs, exchange, open, { ...payload, bestPrice: true })
    expect(best._tag === "Taken" && best.parts.unmatched).toBe(0)
    // In play, kept by default; cancelled at once when the player chose so.
    expect(decideBet({ ...inputs, eventStatus: "live" }, exchange, open, payload)).toMatchObject({ persistence: "keep", live: true })
    const cancelled = decideBet({ ...inputs, eventStatus: "live" }, exchange, book([]), { ...payload, persistence: "cancel" })
    expect(cancelled).toMatchObject({ _tag: "Taken", closed: true, parts: { matches: [], unmatched: 0, cancelled: 50_000 } })
  })

  it("takes a bookmaker or fancy bet whole at the rate on offer when it is the one asked or better, else refuses", () => {
    const rate = book(levels([85, 0]))
    expect(decideBet(inputs, bookmaker, book([]), { ...payload, odds: 85 })).toMatchObject({ reason: "Refused", message: BET_MESSAGES.noPrice })
    expect(decideBet(inputs, bookmaker, rate, { ...payload, odds: 90 })).toMatchObject({ reason: "OddsChanged", message: BET_MESSAGES.oddsChanged })
    expect(decideBet(inputs, bookmaker, rate, { ...payload, odds: 90, bestPrice: true })).toMatchObject({ parts: { matches: [{ odds: 85, stake: 50_000 }] } })
    expect(decideBet(inputs, bookmaker, rate, { ...payload, odds: 80 })).toMatchObject({ parts: { matches: [{ odds: 85, stake: 50_000 }], size: null } })
    const line = book(levels([45, 90]))
    const yes = { ...payload, selectionId: "f", odds: 45, size: 90 }
    expect(decideBet({ ...inputs, channel: "fancy" }, fancy, line, yes)).toMatchObject({ _tag: "Taken", parts: { size: 90 }, exposure: 50_000 })
    expect(decideBet({ ...inputs, channel: "fancy" }, fancy, line, { ...yes, size: 100 })).toMatchObject({ reason: "OddsChanged" })
  })

  it("holds what the worst case grows by, in the wallet the market's hold is in (main for a credit player)", () => {
    const open = book(levels([2, 1_000]), levels([2, 1_000]))
    const backed = decideBet(inputs, exchange, open, payload)
    expect(backed).toMatchObject({ exposure: 50_000, delta: 50_000, wallet: 1 })
    if (backed._tag !== "Taken") return
    // Laying the same back out releases the hold.
    const positions = positionsOf(backed.parts)
    const laid = decideBet({ ...inputs, positions, held: { wallet: 2, exposure: 50_000 }, wallet: 1 }, exchange, open, { ...payload, selectionType: "lay" })
    expect(laid).toMatchObject({ exposure: 0, delta: -50_000, wallet: 2 })
    expect(decideBet({ ...inputs, wallet: 2 }, exchange, open, payload)).toMatchObject({ wallet: 2 })
    expect(decideBet({ ...inputs, wallet: 2, creditPlayer: true }, exchange, open, payload)).toMatchObject({ wallet: 1 })
  })
})

const price = fc.integer({ min: 101, max: 1_000 }).map((h) => h / 100)
const ladder = fc.array(fc.record({ price, size: fc.integer({ min: 0, max: 5_000 }) }), { maxLength: 3 })
const side = fc.constantFrom("back" as const, "lay" as const)
const rupees = fc.integer({ min: 1, max: 1_000_000 }).map((paise) => paise / 100)
const open: fc.Arbitrary<ReadonlyArray<Position>> = fc.array(
  fc.record({ selectionId: fc.constantFrom("a", "b"), side, odds: price, stake: fc.integer({ min: 1, max: 100_000 }) }),
  { maxLength: 4 }
)

describe("deciding a bet: properties", () => {
  it("a taken exchange bet never matches worse than asked, its parts make its stake, and its hold is the change of the worst case", () => {
    fc.assert(fc.property(ladder, ladder, side, price, rupees, open, fc.boolean(), (back, lay, s, odds, stake, positions, bestPrice) => {
      const request = { ...payload, selectionType: s, odds, stake, bestPrice }
      const decision = decideBet({ ...inputs, positions }, exchange, book(back, lay), request)
      const paise = Math.round(stake * 100)
      if (paise < 10_000) {
        expect(decision).toMatchObject({ reason: "StakeOutOfRange" })
        return
      }
      expect(decision._tag).toBe("Taken")
      if (decision._tag !== "Taken") return
      const { parts } = decision
      if (!bestPrice) expect(parts.matches.every((match) => meets(s, odds, match.odds))).toBe(true)
      expect(matchedStake(parts.matches) + parts.unmatched + parts.cancelled).toBe(paise)
      const ids = runners.map((r) => r.selectionId)
      expect(decision.exposure).toBe(marketExposure("EXCHANGE", ids, [...positions, ...positionsOf(parts)]))
      expect(decision.delta).toBe(decision.exposure - marketExposure("EXCHANGE", ids, positions))
    }))
  })

  it("a bookmaker bet is taken whole exactly when the rate is the asked one or better (or the player takes any)", () => {
    const rate = fc.integer({ min: 1, max: 200 })
    fc.assert(fc.property(rate, rate, side, fc.boolean(), (offered, asked, s, bestPrice) => {
      const decision = decideBet(inputs, bookmaker, book(levels([offered, 0]), levels([offered, 0])), { ...payload, selectionType: s, odds: asked, bestPrice })
      const takes = bestPrice || isSameOrBetter("BOOKMAKER", s, { odds: asked }, { odds: offered })
      expect(decision).toMatchObject(takes ? { _tag: "Taken", parts: { matches: [{ odds: offered, stake: 50_000 }], unmatched: 0 } } : { reason: "OddsChanged" })
    }))
  })
})
