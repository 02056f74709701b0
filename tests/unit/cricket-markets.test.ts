import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { forecastOf } from "../../server/odds/forecast.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { winnerOf } from "../../server/odds/Lifecycle.ts"
import { matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { shortName } from "../../server/odds/sports.ts"
import { fixtures, simulatorHarness } from "./odds-harness.ts"

const START = Date.UTC(2026, 0, 1, 12)
const DURATION = matchDuration("4")
const NAME = "India v Australia"
const [HOME, AWAY] = [shortName("India"), shortName("Australia")]

/** The harness's cricket match (India v Australia), played from a secret of the test's, driven by scores steps only. */
const playThrough = async (secret: string, steps: ReadonlyArray<number>) => {
  const rows = fixtures(START, true).filter((row) => row.eventId === "c")
  const harness = simulatorHarness(rows, { seed: 1, secret })
  await Effect.runPromise(harness.simulator.load(START))
  let now = START
  for (const step of steps) {
    now = Math.min(START + DURATION, now + step)
    await Effect.runPromise(harness.scoresAt(now))
  }
  await Effect.runPromise(harness.scoresAt(START + DURATION))
  const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor(secret, "c") }
  return { rows, harness, event }
}

const steps = fc.array(fc.integer({ min: 10_000, max: 20 * 60_000 }), { minLength: 1, maxLength: 60 })

describe("an innings' odd/even", () => {
  it("settles exactly once, on the parity of the innings' total: the first as soon as it is over, the second at the end", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const final = matchAt(event, START + DURATION)!
        for (const [side, total] of [[HOME, final.home], [AWAY, final.away]] as const) {
          const row = rows.find((r) => r.name === `Innings Runs Odd/Even ${side}`)!
          const settlements = harness.settlements.filter((s) => s.externalId === row.externalId)
          expect(settlements, side).toHaveLength(1)
          const runner = row.runners!.find((r) => r.selectionId === settlements[0]!.result)!
          expect(runner.name, side).toBe(total % 2 === 1 ? "Odd" : "Even")
          // Never before the innings was over.
          const then = matchAt(event, settlements[0]!.now)!
          expect(side === HOME ? then.innings!.complete : then.finished, side).toBe(true)
        }
      }),
      { numRuns: 12 }
    )
  })

  it("is void when the innings is not played (a match abandoned between the innings)", () => {
    const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor("void", "c") }
    const final = matchAt(event, START + DURATION)!
    const market = (side: string) => ({
      name: `Innings Runs Odd/Even ${side}`,
      marketType: "EXCHANGE" as const,
      runners: [{ selectionId: "odd", name: "Odd" }, { selectionId: "even", name: "Even" }]
    })
    expect(winnerOf(market(AWAY), "4", final, event.seed)).toBe(final.away % 2 === 1 ? "odd" : "even")
    if (final.progress.kind !== "cricket") throw new Error("not cricket")
    const abandoned = { ...final, away: 0, progress: { ...final.progress, balls: 0, wickets: 0, runs: 0 } }
    expect(winnerOf(market(AWAY), "4", abandoned, event.seed)).toBeUndefined()
    expect(winnerOf(market(HOME), "4", abandoned, event.seed)).toBe(final.home % 2 === 1 ? "odd" : "even")
  })

  it("prices the chase's odd/even during the first innings as the chase itself will, for the target set", () => {
    const sides = ["H", "A"] as const
    for (const edge of [0.91, 1, 1.1]) {
      for (const runs of [0, 57, 122, 123, 180]) {
        // The first innings all out on `runs`: the chase of runs + 1, worked out two ways.
        const allOut = forecastOf({ kind: "cricket", edge }, { kind: "cricket", sides, innings: 1, balls: 80, wickets: 10, runs, target: undefined })
        const chase = forecastOf({ kind: "cricket", edge }, { kind: "cricket", sides, innings: 2, balls: 0, wickets: 0, runs: 0, target: runs + 1 })
        expect(allOut.spaces!["odd-even A"]!.odd!, `${edge} ${runs}`).toBeCloseTo(chase.spaces!["odd-even A"]!.odd!, 9)
        expect(allOut.spaces!["odd-even H"]!.odd).toBe(runs % 2)
      }
    }
  })
})
