import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { validPrice } from "../../src/domain/betting.ts"
import { ladderDown, ladderFloor, ladderUp } from "../../src/domain/ladder.ts"
import { bookmakerLevels, exchangeLevels, newSizes } from "../../server/odds/ladder.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { fancyState, matchAt, matchDuration, normalise, rng } from "../../server/odds/simulation.ts"

describe("the exchange price ladder", () => {
  it("steps by the band's tick and never leaves 1.01 .. 1000", () => {
    expect(ladderUp(1.99)).toBe(2)
    expect(ladderUp(2)).toBe(2.02)
    expect(ladderDown(2.02)).toBe(2)
    expect(ladderDown(2)).toBe(1.99)
    expect(ladderDown(1.01)).toBe(1.01)
    expect(ladderFloor(3.07)).toBe(3.05)
    expect(ladderFloor(0.5)).toBe(1.01)
    fc.assert(fc.property(fc.double({ min: 1.01, max: 999, noNaN: true }), (price) => {
      const floor = ladderFloor(price)
      expect(floor).toBeLessThanOrEqual(price + 1e-9)
      expect(validPrice("EXCHANGE", floor)).toBe(true)
      expect(ladderUp(floor)).toBeGreaterThan(floor)
      expect(validPrice("EXCHANGE", ladderUp(floor))).toBe(true)
    }))
  })

  it("prices every runner with back under the fair price and lay over it, three levels each, all valid", () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 12 }), fc.integer(), (count, seed) => {
      const random = rng(seed)
      const probs = normalise(Array.from({ length: count }, () => 0.4 + random() * 1.6))
      for (const p of probs) {
        const runner = exchangeLevels({ high: p, low: p }, newSizes(3, random))
        // The best back is never above the fair price, the best lay never below.
        if (runner.back[0]) expect(runner.back[0].price).toBeLessThanOrEqual(1 / p)
        if (runner.lay[0]) expect(runner.lay[0].price).toBeGreaterThanOrEqual(1 / p)
        if (p > 0.01 && p < 0.98) expect(runner.back).toHaveLength(3)
        for (const [i, level] of runner.back.entries()) if (i > 0) expect(level.price).toBeLessThan(runner.back[i - 1]!.price)
        for (const level of [...runner.back, ...runner.lay]) expect(validPrice("EXCHANGE", level.price)).toBe(true)
      }
      for (const p of [0.6, 0.4]) {
        const runner = bookmakerLevels({ high: p, low: p }, newSizes(1, random))
        expect(runner.back[0]!.price).toBeLessThan(runner.lay[0]!.price)
        expect(1 + runner.back[0]!.price / 100).toBeLessThanOrEqual(1 / p)
        expect(1 + runner.lay[0]!.price / 100).toBeGreaterThanOrEqual(1 / p)
      }
    }))
  })
})

describe("simulated matches", () => {
  const event = { id: "event-1", name: "India v Australia", sportCode: "4", startsAt: 0, seed: seedFor("a secret", "event-1") }

  it("are the same match every time for the same event and moment (a restart resumes it)", () => {
    const at = matchDuration("4") / 2
    expect(matchAt(event, at)).toEqual(matchAt(event, at))
    expect(matchAt({ ...event, sportCode: "1", name: "Arsenal v Chelsea" }, 1_000_000)).toEqual(matchAt({ ...event, sportCode: "1", name: "Arsenal v Chelsea" }, 1_000_000))
  })

  it("only move forward: runs never go down and a finished match stays finished", () => {
    let runs = 0
    for (let t = 0; t <= matchDuration("4"); t += 60_000) {
      const match = matchAt(event, t)!
      expect(match.home).toBeGreaterThanOrEqual(runs)
      runs = match.home
    }
    expect(matchAt(event, matchDuration("4"))!.finished).toBe(true)
    expect(matchAt(event, matchDuration("4") * 3)!.finished).toBe(true)
    expect(matchAt({ ...event, sportCode: "7" }, 0)).toBeUndefined()
  })

  it("settles fancy lines once their over is bowled, from the runs at that over", () => {
    const before = fancyState("6 Over Runs IND", matchAt(event, 1))
    expect(before.result).toBeUndefined()
    expect(before.line).toBeGreaterThan(0)
    const later = matchAt(event, matchDuration("4") * 0.45)!
    const six = fancyState("6 Over Runs IND", later)
    expect(six.result).toBe(later.innings!.runs[35])
    const wicket = fancyState("Fall of 1st Wkt IND", matchAt(event, matchDuration("4")))
    expect(wicket.result).toBeDefined()
  })
})
