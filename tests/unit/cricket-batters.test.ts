import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { batterRunsName, checkEventBooks, claimOf, problemText, runCountOf } from "../../src/domain/eventBook.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { forecastOf } from "../../server/odds/forecast.ts"
import { batterFinal, soFar } from "../../server/odds/innings.ts"
import { fancyState, inningsOf, matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { BALL_RUNS, ballChances, shortName } from "../../server/odds/sports.ts"
import { fixtures, frequency, simulatorHarness } from "./odds-harness.ts"

const START = Date.UTC(2026, 0, 1, 12)
const DURATION = matchDuration("4")
const [HOME, AWAY] = [shortName("India"), shortName("Australia")]

const ball = fc.oneof(fc.constant({ runs: 0, wicket: true }), fc.constantFrom(...BALL_RUNS).map((runs) => ({ runs, wicket: false })))

describe("who bats", () => {
  it("follows the balls: the striker scores, odd runs and the over's end change ends, a wicket brings the next batter in", () => {
    const balls = [
      { runs: 1, wicket: false }, // 1 scores, 2 on strike
      { runs: 4, wicket: false }, // 2
      { runs: 0, wicket: true }, // 2 out, 3 in on strike
      { runs: 2, wicket: false }, // 3
      { runs: 0, wicket: false },
      { runs: 6, wicket: false }, // 3; the over ends: 1 on strike
      { runs: 3, wicket: false } // 1 scores, 3 on strike
    ]
    expect(soFar(balls, 3)).toMatchObject({ crease: [3, 1], batters: [{ runs: 1, out: false }, { runs: 4, out: true }, { runs: 0, out: false }] })
    expect(soFar(balls, 6).crease).toEqual([1, 3])
    expect(soFar(balls, 7)).toMatchObject({ crease: [3, 1], batters: [{ runs: 4 }, { runs: 4 }, { runs: 8 }] })
  })

  it("adds up: the batters' runs are the innings', one out per wicket, two at the crease until all out", () => {
    fc.assert(fc.property(fc.array(ball, { maxLength: 120 }), (balls) => {
      const innings = soFar(balls, balls.length)
      expect(innings.batters.reduce((sum, b) => sum + b.runs, 0)).toBe(innings.runs.at(-1) ?? 0)
      expect(innings.batters.filter((b) => b.out)).toHaveLength(innings.wicketsAt.length)
      expect(innings.batters).toHaveLength(Math.min(11, innings.wicketsAt.length + 2))
      if (innings.wicketsAt.length >= 10) expect(innings.crease).toEqual([])
      else for (const at of innings.crease) expect(innings.batters[at - 1]!.out).toBe(false)
    }))
  })
})

describe("a batter's runs", () => {
  it("are priced as the simulator plays them: an opener's chance of 20 within sampling error", () => {
    const { wicket, runs } = ballChances(1)
    const model = batterFinal({ wicket, runs: BALL_RUNS.map((r, k) => [r, runs[k]!] as const) }, { balls: 0, wickets: 0, runs: 0, onStrike: true })
    expect(model.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9)
    const twenty = model.slice(20).reduce((a, b) => a + b, 0)
    // Draw 0.5: an edge of 1.
    const { rate, band } = frequency("4", [0.5], 3000, (p) => p.at(0.5).innings!.batters[0]!.runs >= 20)
    expect(Math.abs(rate - twenty)).toBeLessThan(band)
  })

  it("are never more likely to reach a line than the innings' runs, in a chase too", () => {
    const sides = ["H", "A"] as const
    const crease = [{ batter: 4, runs: 35 }, { batter: 6, runs: 2 }]
    for (const [innings, target] of [[1, undefined], [2, 140]] as const) {
      const forecast = forecastOf({ kind: "cricket", edge: 1 }, { kind: "cricket", sides, innings, balls: 70, wickets: 3, runs: 120, overStart: 118, target, crease })
      const side = sides[innings - 1]!
      const total = forecast.reach!({ side, kind: "overs", overs: 20 })!
      for (const batter of [4, 6]) {
        const reach = forecast.reach!({ side, kind: "batter", batter })!
        expect(reach[0]).toBeCloseTo(1, 9)
        for (const [r, chance] of reach.entries()) expect(chance, `${batter} ${r}`).toBeLessThanOrEqual((total[r] ?? 0) + 1e-12)
      }
      // One not at the crease has no price.
      expect(forecast.reach!({ side, kind: "batter", batter: 5 })).toBeUndefined()
    }
  })

  it("settle exactly once, on the score when out or at the innings' end, each opened as its batter comes in", async () => {
    const steps = fc.array(fc.integer({ min: 10_000, max: 20 * 60_000 }), { minLength: 1, maxLength: 60 })
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const secret = `secret ${n}`
        const rows = fixtures(START, true).filter((row) => row.eventId === "c")
        const harness = simulatorHarness(rows, { seed: 1, secret })
        await Effect.runPromise(harness.simulator.load(START))
        let now = START
        for (const step of lengths) await Effect.runPromise(harness.scoresAt((now = Math.min(START + DURATION, now + step))))
        await Effect.runPromise(harness.scoresAt(START + DURATION))
        const event = { id: "c", name: "India v Australia", sportCode: "4", startsAt: START, seed: seedFor(secret, "c") }
        const final = matchAt(event, START + DURATION)!
        const lines = [...rows, ...harness.opened].filter((row) => runCountOf(row.name).kind === "batter")
        expect(lines.map((l) => l.name)).toEqual(expect.arrayContaining([1, 2].flatMap((b) => [batterRunsName(b, HOME), batterRunsName(b, AWAY)])))
        for (const line of lines) {
          const count = runCountOf(line.name)
          if (count.kind !== "batter") continue
          const batter = inningsOf(final, count.side)!.batters[count.batter - 1]!
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          expect(settlements[0]!.result, line.name).toBe(String(batter.runs))
          expect(fancyState(line.name, final).result).toBe(batter.runs)
          // Never before the batter was out or the innings over.
          const then = inningsOf(matchAt(event, settlements[0]!.now), count.side)!
          expect(then.batters[count.batter - 1]!.out || then.complete, line.name).toBe(true)
          if (count.batter <= 2) continue
          // Opened by play while the batter was at the crease.
          const at = inningsOf(matchAt(event, harness.opened.find((o) => o.name === line.name)!.now), count.side)!
          expect(at.crease, line.name).toContain(count.batter)
        }
      }),
      { numRuns: 10 }
    )
  })

  it("is void for a batter who never bats, and nested in the innings' runs for the combined book", () => {
    const event = { id: "c", name: "India v Australia", sportCode: "4", startsAt: START, seed: seedFor("void", "c") }
    const final = matchAt(event, START + DURATION)!
    expect(fancyState(batterRunsName(11, HOME), final)).toEqual(
      final.innings!.batters.length >= 11 ? { line: final.innings!.batters[10]!.runs, result: final.innings!.batters[10]!.runs } : { line: 0, void: true }
    )
    const fancy = (name: string, yes: number, no: number, size = 100) => ({
      claim: claimOf({ name, marketType: "FANCY", runners: [{ name }] }),
      book: {
        marketId: name, eventId: "e", marketType: "FANCY", status: "OPEN", inPlay: true, version: 1,
        runners: [{ selectionId: name, back: [{ price: yes, size }], lay: [{ price: no, size: 100 }] }]
      } satisfies MarketBook
    })
    // Yes 40 on the innings paying more than a No at 44 on a batter costs: the batter reaching 44 means the innings did.
    const check = checkEventBooks([fancy("20 Over Runs MI", 40, 39, 110), fancy("Batter 3 Runs MI", 45, 44)])
    expect(check.problems.map(problemText)).toEqual(["Yes 40 on MI:overs:20 and No 44 on MI:batter:3 cannot both lose"])
    expect(checkEventBooks([fancy("6 Over Runs MI", 40, 39, 110), fancy("Batter 3 Runs MI", 45, 44)]).problems).toEqual([])
  })
})
