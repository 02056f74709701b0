import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { marketExposure, type Position, runnerOutcome } from "../../src/domain/betting.ts"
import {
  averageOdds,
  matchedStake,
  matchOffers,
  matchWaiting,
  meets,
  mergeMatches,
  newlyMatched,
  type Offer,
  offersOf,
  openStatus,
  outcomeMessage,
  positionsOf
} from "../../src/domain/matching.ts"

const odds = fc.integer({ min: 101, max: 2_000 }).map((h) => h / 100)
const stake = fc.integer({ min: 1, max: 5_000_000 })
const side = fc.constantFrom("back" as const, "lay" as const)
/** A side's ladder as a book shows it: up to three levels, sizes in rupees. */
const levels = fc.array(fc.record({ price: odds, size: fc.integer({ min: 0, max: 50_000 }) }), { maxLength: 3 })
const hundredths = (price: number) => Math.round(price * 100)

describe("matching a bet against the ladder (src/domain/matching.ts)", () => {
  it("never matches at a worse price than asked, and what is matched and what waits make the stake", () => {
    fc.assert(fc.property(levels, side, odds, stake, (ladder, s, asked, amount) => {
      const { matches, unmatched } = matchOffers(offersOf(s, ladder), s, asked, amount)
      expect(matches.every((match) => meets(s, asked, match.odds))).toBe(true)
      expect(matchedStake(matches) + unmatched).toBe(amount)
      expect(unmatched).toBeGreaterThanOrEqual(0)
    }))
  })

  it("takes the levels best first, none past its size, and leaves waiting only what the levels at its price cannot cover", () => {
    fc.assert(fc.property(levels, side, odds, stake, (ladder, s, asked, amount) => {
      const offers = offersOf(s, ladder)
      const { matches, unmatched, left } = matchOffers(offers, s, asked, amount)
      const takenAt = (offer: Offer, i: number) => offer.size - left[i]!.size
      offers.forEach((offer, i) => {
        expect(takenAt(offer, i)).toBeGreaterThanOrEqual(0)
        // A level is touched only once every better level is used up.
        if (takenAt(offer, i) > 0) for (let k = 0; k < i; k++) expect(left[k]!.size).toBe(0)
      })
      const reachable = offers.filter((offer) => meets(s, asked, offer.price)).reduce((sum, offer) => sum + offer.size, 0)
      expect(matchedStake(matches)).toBe(Math.min(amount, reachable))
      if (unmatched > 0) expect(left.filter((offer) => meets(s, asked, offer.price)).every((offer) => offer.size === 0)).toBe(true)
    }))
  })

  it("the best available price takes every level, whatever its price", () => {
    fc.assert(fc.property(levels, side, stake, (ladder, s, amount) => {
      const offers = offersOf(s, ladder)
      const { matches } = matchOffers(offers, s, undefined, amount)
      expect(matchedStake(matches)).toBe(Math.min(amount, offers.reduce((sum, offer) => sum + offer.size, 0)))
    }))
  })

  it("walks the levels: a back asked at 1.82 takes 1.84, then 1.83, then 1.82, and waits for the rest", () => {
    const ladder = [{ price: 1.82, size: 500 }, { price: 1.84, size: 60 }, { price: 1.83, size: 30 }, { price: 1.8, size: 1000 }]
    const result = matchOffers(offersOf("back", ladder), "back", 1.82, 100_000)
    expect(result.matches).toEqual([{ odds: 1.84, stake: 6_000 }, { odds: 1.83, stake: 3_000 }, { odds: 1.82, stake: 50_000 }])
    expect(result.unmatched).toBe(41_000)
    // A lay asked at 1.85 takes the lowest prices first and nothing above 1.85.
    const lay = matchOffers(offersOf("lay", [{ price: 1.86, size: 100 }, { price: 1.85, size: 10 }]), "lay", 1.85, 5_000)
    expect(lay).toMatchObject({ matches: [{ odds: 1.85, stake: 1_000 }], unmatched: 4_000 })
  })

  it("waiting bets are matched in the order placed, each at its price or better, never past a level's size", () => {
    const waiting = fc.array(fc.record({ odds, unmatched: stake }), { minLength: 1, maxLength: 6 })
    fc.assert(fc.property(levels, side, waiting, (ladder, s, bets) => {
      const offers = offersOf(s, ladder)
      const matched = matchWaiting(offers, s, bets)
      const byBet = new Map(matched.map((m) => [m.bet, m.matches]))
      for (const bet of bets) {
        const mine = byBet.get(bet) ?? []
        expect(mine.every((match) => meets(s, bet.odds, match.odds))).toBe(true)
        expect(matchedStake(mine)).toBeLessThanOrEqual(bet.unmatched)
      }
      // No level gives more than it has.
      for (const offer of offers) {
        const taken = matched.flatMap((m) => m.matches).filter((match) => hundredths(match.odds) === hundredths(offer.price)).reduce((sum, match) => sum + match.stake, 0)
        const available = offers.filter((o) => hundredths(o.price) === hundredths(offer.price)).reduce((sum, o) => sum + o.size, 0)
        expect(taken).toBeLessThanOrEqual(available)
      }
      // A later bet never takes a price an earlier one still waiting would have taken.
      bets.forEach((earlier, i) => {
        if (matchedStake(byBet.get(earlier) ?? []) === earlier.unmatched) return
        for (const later of bets.slice(i + 1)) {
          expect((byBet.get(later) ?? []).some((match) => meets(s, earlier.odds, match.odds))).toBe(false)
        }
      })
    }))
  })

  it("parts at one price become one; the average price lies between the parts'", () => {
    expect(mergeMatches([{ odds: 1.82, stake: 100 }, { odds: 1.83, stake: 50 }, { odds: 1.82, stake: 25 }])).toEqual([{ odds: 1.82, stake: 125 }, { odds: 1.83, stake: 50 }])
    fc.assert(fc.property(fc.array(fc.record({ odds, stake }), { minLength: 1, maxLength: 5 }), (parts) => {
      const average = averageOdds(parts)!
      expect(average).toBeGreaterThanOrEqual(Math.min(...parts.map((p) => p.odds)))
      expect(average).toBeLessThanOrEqual(Math.max(...parts.map((p) => p.odds)))
      expect(matchedStake(mergeMatches(parts))).toBe(matchedStake(parts))
    }))
    expect(averageOdds([])).toBeUndefined()
  })
})

describe("what a change of a bet took off the ladder", () => {
  const parts = fc.array(fc.record({ odds, stake }), { maxLength: 4 })

  it("is what was added per price: the earlier parts plus it make the later ones", () => {
    fc.assert(fc.property(parts, parts, (before, added) => {
      const after = mergeMatches([...before, ...added])
      const taken = newlyMatched(before, after)
      expect(taken.every((m) => m.stake > 0)).toBe(true)
      expect(mergeMatches([...before, ...taken])).toEqual(expect.arrayContaining(after))
      expect(matchedStake(taken)).toBe(matchedStake(added))
    }))
  })

  it("is nothing when nothing more matched (a cancel, a move that matched nothing)", () => {
    expect(newlyMatched([{ odds: 1.8, stake: 100 }], [{ odds: 1.8, stake: 100 }])).toEqual([])
    expect(newlyMatched([{ odds: 1.8, stake: 100 }], [{ odds: 1.8, stake: 150 }, { odds: 1.79, stake: 20 }])).toEqual([{ odds: 1.8, stake: 50 }, { odds: 1.79, stake: 20 }])
  })
})

describe("the worst case of matched and unmatched bets", () => {
  const runners = ["r1", "r2", "r3"]
  const bet = fc.record({
    selectionId: fc.constantFrom(...runners),
    side,
    odds,
    unmatched: fc.integer({ min: 0, max: 100_000 }),
    matches: fc.array(fc.record({ odds, stake: fc.integer({ min: 1, max: 100_000 }) }), { maxLength: 2 })
  })

  /**
   * The loss the player can come to: over every winner, and over every way what waits may end (each waiting bet
   * matched whole at its price, or not at all; a part of one lies between, a better price only helps the player).
   */
  const bruteWorst = (positions: ReadonlyArray<Position>) => {
    const waiting = positions.filter((p) => p.waiting)
    const matched = positions.filter((p) => !p.waiting)
    let worst = 0
    for (const winner of runners) {
      for (let mask = 0; mask < 1 << waiting.length; mask++) {
        const taken = waiting.filter((_, i) => mask & (1 << i)).map((p) => ({ ...p, waiting: false }))
        const pl = [...matched, ...taken].reduce((sum, p) => sum + runnerOutcome("EXCHANGE", p, winner), 0)
        worst = Math.min(worst, pl)
      }
    }
    return worst === 0 ? 0 : -worst
  }

  it("the exposure held equals the worst case of what is matched and whatever of what waits is matched", () => {
    fc.assert(fc.property(fc.array(bet, { maxLength: 5 }), (bets) => {
      const positions = bets.flatMap(positionsOf)
      expect(marketExposure("EXCHANGE", runners, positions)).toBe(bruteWorst(positions))
    }))
  })

  it("a bet's positions hold its matched parts and what waits, nothing more", () => {
    fc.assert(fc.property(bet, (b) => {
      const positions = positionsOf(b)
      expect(positions.reduce((sum, p) => sum + p.stake, 0)).toBe(matchedStake(b.matches) + b.unmatched)
      expect(positions.filter((p) => p.waiting).every((p) => p.odds === b.odds)).toBe(true)
    }))
  })

  it("matching what waits, or cancelling it, never adds to the worst case", () => {
    fc.assert(fc.property(fc.array(bet, { minLength: 1, maxLength: 4 }), fc.array(fc.record({ price: odds, size: fc.integer({ min: 0, max: 2_000 }) }), { maxLength: 3 }), (bets, ladder) => {
      const before = marketExposure("EXCHANGE", runners, bets.flatMap(positionsOf))
      const matched = bets.map((b) => {
        const m = matchOffers(offersOf(b.side, ladder), b.side, b.odds, b.unmatched)
        return { ...b, unmatched: m.unmatched, matches: mergeMatches([...b.matches, ...m.matches]) }
      })
      expect(marketExposure("EXCHANGE", runners, matched.flatMap(positionsOf))).toBeLessThanOrEqual(before)
      const cancelled = bets.map((b) => ({ ...b, unmatched: 0 }))
      expect(marketExposure("EXCHANGE", runners, cancelled.flatMap(positionsOf))).toBeLessThanOrEqual(before)
    }))
  })
})

describe("what the player is told", () => {
  it("says what matched and what waits", () => {
    expect(outcomeMessage("EXCHANGE", { odds: 1.82, unmatched: 0, cancelled: 0, matches: [{ odds: 1.82, stake: 10_000 }] })).toBe("Matched ₹100.00 at 1.82")
    expect(outcomeMessage("EXCHANGE", { odds: 1.82, unmatched: 4_000, cancelled: 0, matches: [{ odds: 1.82, stake: 6_000 }] })).toBe("₹60.00 matched at 1.82, ₹40.00 waiting at 1.82")
    expect(outcomeMessage("EXCHANGE", { odds: 1.82, unmatched: 10_000, cancelled: 0, matches: [] })).toBe("Waiting at 1.82")
    expect(outcomeMessage("EXCHANGE", { odds: 1.82, unmatched: 0, cancelled: 4_000, matches: [{ odds: 1.84, stake: 6_000 }] })).toBe("₹60.00 matched at 1.84, ₹40.00 cancelled")
    expect(outcomeMessage("BOOKMAKER", { odds: 60, unmatched: 0, cancelled: 0, matches: [{ odds: 60, stake: 1_00_000 }] })).toBe("Matched ₹1,000.00 at 60")
    expect(openStatus(100, 0)).toBe("matched")
    expect(openStatus(60, 40)).toBe("partially_matched")
    expect(openStatus(0, 100)).toBe("unmatched")
  })
})
