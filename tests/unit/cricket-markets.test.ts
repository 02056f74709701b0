import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fallOfWicketName, overRunsName, runCountOf } from "../../src/domain/eventBook.ts"
import { forecastOf } from "../../server/odds/forecast.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { winnerOf } from "../../server/odds/Lifecycle.ts"
import { linesToOpen } from "../../server/odds/inPlayLines.ts"
import { fancyState, matchAt, matchDuration } from "../../server/odds/simulation.ts"
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

/** The names of the next-wicket lines among `rows`. */
const wicketLines = (rows: ReadonlyArray<{ readonly name: string }>) => rows.map((row) => row.name).filter((name) => runCountOf(name).kind === "wicket")

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
        const allOut = forecastOf({ kind: "cricket", edge }, { kind: "cricket", sides, innings: 1, balls: 80, wickets: 10, runs, overStart: runs, target: undefined })
        const chase = forecastOf({ kind: "cricket", edge }, { kind: "cricket", sides, innings: 2, balls: 0, wickets: 0, runs: 0, overStart: 0, target: runs + 1 })
        expect(allOut.spaces!["odd-even A"]!.odd!, `${edge} ${runs}`).toBeCloseTo(chase.spaces!["odd-even A"]!.odd!, 9)
        expect(allOut.spaces!["odd-even H"]!.odd).toBe(runs % 2)
      }
    }
  })
})

describe("the next wicket's fall", () => {
  it("opens when the wicket before it falls, while the innings goes on, and settles once on the runs at its fall (or the innings' end)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const innings = matchAt(event, START + DURATION)!.innings!
        const lines = [...rows, ...harness.opened].filter((row) => runCountOf(row.name).kind === "wicket")
        for (const line of lines) {
          const count = runCountOf(line.name)
          if (count.kind !== "wicket") continue
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          const fell = innings.wicketsAt[count.wicket - 1]
          const runs = fell === undefined ? innings.runs.at(-1) ?? 0 : innings.runs[fell]!
          expect(settlements[0]!.result, line.name).toBe(String(runs))
          // Settled once the wicket fell or the innings ended, never before.
          const then = matchAt(event, settlements[0]!.now)!.innings!
          expect(then.wicketsAt.length >= count.wicket || then.complete, line.name).toBe(true)
          if (count.wicket === 1) continue
          // Opened by play: once the wicket before it fell, the innings still going on.
          const opened = harness.opened.find((o) => o.name === line.name)!
          const at = matchAt(event, opened.now)!.innings!
          expect(at.wicketsAt.length, line.name).toBe(count.wicket - 1)
          expect(at.complete, line.name).toBe(false)
        }
        // The wickets seen to fall in the innings each opened the next line.
        expect(lines.length).toBeGreaterThanOrEqual(1)
        expect(wicketLines(harness.opened)).toEqual(lines.slice(1).map((l) => l.name))
      }),
      { numRuns: 12 }
    )
  })

  it("opens every next wicket of an innings watched ball by ball", async () => {
    const secret = "ball by ball"
    const balls = Array.from({ length: 125 }, () => DURATION / 240)
    const { harness, event } = await playThrough(secret, balls)
    const innings = matchAt(event, START + DURATION)!.innings!
    const fallen = innings.wicketsAt.filter((ball) => ball < innings.runs.length - 1 || !innings.complete).length
    const expected = Array.from({ length: Math.min(9, fallen) }, (_, i) => fallOfWicketName(i + 2, HOME))
    expect(expected.length).toBeGreaterThan(1)
    expect(wicketLines(harness.opened)).toEqual(expected)
  })
})

describe("the runs of one over", () => {
  it("opens once the over before it is bowled, while the innings goes on, and settles once on the runs scored in it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const innings = matchAt(event, START + DURATION)!.innings!
        const runsAfter = (balls: number) => (balls <= 0 ? 0 : innings.runs[Math.min(balls, innings.runs.length) - 1]!)
        const lines = [...rows, ...harness.opened].filter((row) => runCountOf(row.name).kind === "over")
        expect(lines.length).toBeGreaterThanOrEqual(1)
        for (const line of lines) {
          const count = runCountOf(line.name)
          if (count.kind !== "over") continue
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          expect(settlements[0]!.result, line.name).toBe(String(runsAfter(count.over * 6) - runsAfter(count.over * 6 - 6)))
          const then = matchAt(event, settlements[0]!.now)!.innings!
          expect(then.balls >= count.over * 6 || then.complete, line.name).toBe(true)
          if (count.over === 1) continue
          const at = matchAt(event, harness.opened.find((o) => o.name === line.name)!.now)!.innings!
          expect(at.complete, line.name).toBe(false)
          expect(Math.floor(at.balls / 6) + 1, line.name).toBe(count.over)
        }
      }),
      { numRuns: 12 }
    )
  })

  it("opens each over before its first ball when the innings is watched ball by ball", async () => {
    const balls = Array.from({ length: 125 }, () => DURATION / 240)
    const { harness, event } = await playThrough("ball by ball", balls)
    const innings = matchAt(event, START + DURATION)!.innings!
    const overs = harness.opened.flatMap((o) => {
      const count = runCountOf(o.name)
      return count.kind === "over" ? [{ over: count.over, balls: matchAt(event, o.now)!.innings!.balls }] : []
    })
    const expected = Array.from({ length: Math.ceil(innings.runs.length / 6) - 1 }, (_, i) => i + 2)
    expect(overs.map((o) => o.over)).toEqual(expected)
    for (const { over, balls: bowled } of overs) expect(bowled, overRunsName(over, HOME)).toBe((over - 1) * 6)
  })

  it("carries on after a restart that finds only a later line of the chain open (its first settled)", () => {
    const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor("restart", "c") }
    const match = matchAt(event, START + (42.5 * DURATION) / 240)!
    expect(match.innings!.balls).toBe(42)
    expect(match.innings!.complete).toBe(false)
    const wickets = match.innings!.wicketsAt.length
    const seen = new Set([overRunsName(7, HOME), fallOfWicketName(wickets + 1, HOME)])
    expect(linesToOpen(seen, match)).toEqual([{ name: overRunsName(8, HOME), follows: overRunsName(7, HOME) }])
    expect(linesToOpen(new Set(), match)).toEqual([])
  })

  it("settles on the runs scored when the innings ends during the over, and is void when it ends before the over", () => {
    const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor("void", "c") }
    const final = matchAt(event, START + DURATION)!
    const { runs } = final.innings!
    // The innings cut short after 33 balls (all out, say): the 6th over had 3 balls, the 7th none.
    const short = { ...final, innings: { ...final.innings!, runs: runs.slice(0, 33), wicketsAt: [], balls: 33, complete: true } }
    expect(fancyState(overRunsName(5, HOME), short)).toEqual({ line: runs[29]! - runs[23]!, result: runs[29]! - runs[23]! })
    expect(fancyState(overRunsName(6, HOME), short)).toEqual({ line: runs[32]! - runs[29]!, result: runs[32]! - runs[29]! })
    expect(fancyState(overRunsName(7, HOME), short)).toMatchObject({ void: true })
    expect(fancyState(overRunsName(7, HOME), short).result).toBeUndefined()
  })
})
