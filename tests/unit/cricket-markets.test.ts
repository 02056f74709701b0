import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fallOfWicketName, overRunsName, runCountOf } from "../../src/domain/eventBook.ts"
import { forecastOf } from "../../server/odds/forecast.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { winnerOf } from "../../server/odds/Lifecycle.ts"
import { linesToOpen } from "../../server/odds/inPlayLines.ts"
import { fancyState, inningsOf, matchAt, matchDuration } from "../../server/odds/simulation.ts"
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

/** A line's side and its innings in the match at `now`. */
const inningsAt = (event: Parameters<typeof matchAt>[0], name: string, now: number) => inningsOf(matchAt(event, now), runCountOf(name).side)

describe("each innings' fancy lines", () => {
  it("settle exactly once, each on its own side's innings, never before that innings has reached it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const final = matchAt(event, START + DURATION)!
        const lines = [...rows.filter((row) => row.marketType === "FANCY"), ...harness.opened]
        expect(new Set(lines.map((l) => runCountOf(l.name).side))).toEqual(new Set([HOME, AWAY]))
        for (const line of lines) {
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          expect(settlements[0]!.result, line.name).toBe(String(fancyState(line.name, final).result))
          // The second innings' lines settle in the second innings.
          if (runCountOf(line.name).side === AWAY) expect(matchAt(event, settlements[0]!.now)!.second, line.name).toBeDefined()
        }
      }),
      { numRuns: 10 }
    )
  })

  it("are void when their innings is never played", () => {
    const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor("void", "c") }
    const { second: _, ...abandoned } = matchAt(event, START + DURATION)!
    for (const name of [fallOfWicketName(1, AWAY), overRunsName(1, AWAY), `6 Over Runs ${AWAY}`]) expect(fancyState(name, abandoned), name).toEqual({ line: 0, void: true })
    expect(fancyState(fallOfWicketName(1, HOME), abandoned).result).toBeDefined()
  })

  it("price a chase's wicket falls as a whole distribution: one not fallen when the target is reached counts the innings' runs", () => {
    const sides = ["H", "A"] as const
    const chase = forecastOf({ kind: "cricket", edge: 1 }, { kind: "cricket", sides, innings: 2, balls: 60, wickets: 2, runs: 70, overStart: 70, target: 120 })
    for (const wicket of [3, 6, 10]) expect(chase.reach!({ side: "A", kind: "wicket", wicket })![70], String(wicket)).toBeCloseTo(1, 9)
    // Only the side batting: the first innings is over.
    expect(chase.reach!({ side: "H", kind: "overs", overs: 20 })).toBeUndefined()
  })
})

describe("the next wicket's fall", () => {
  it("opens when the wicket before it falls, in either innings while it goes on, and settles once on the runs at its fall (or the innings' end)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const lines = [...rows, ...harness.opened].filter((row) => runCountOf(row.name).kind === "wicket")
        for (const line of lines) {
          const count = runCountOf(line.name)
          if (count.kind !== "wicket") continue
          const innings = inningsAt(event, line.name, START + DURATION)!
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          const fell = innings.wicketsAt[count.wicket - 1]
          const runs = fell === undefined ? innings.runs.at(-1) ?? 0 : innings.runs[fell]!
          expect(settlements[0]!.result, line.name).toBe(String(runs))
          // Settled once the wicket fell or the innings ended, never before (nor before the innings began).
          const then = inningsAt(event, line.name, settlements[0]!.now)
          expect(then !== undefined && (then.wicketsAt.length >= count.wicket || then.complete), line.name).toBe(true)
          if (count.wicket === 1) continue
          // Opened by play: once the wicket before it fell, the innings still going on.
          const opened = harness.opened.find((o) => o.name === line.name)!
          const at = inningsAt(event, line.name, opened.now)!
          expect(at.wicketsAt.length, line.name).toBe(count.wicket - 1)
          expect(at.complete, line.name).toBe(false)
        }
        // Each side's chain: the wickets seen to fall each opened the next line.
        for (const side of [HOME, AWAY]) {
          const chain = lines.filter((l) => runCountOf(l.name).side === side)
          expect(chain.length, side).toBeGreaterThanOrEqual(1)
          expect(wicketLines(harness.opened.filter((o) => runCountOf(o.name).side === side)), side).toEqual(chain.slice(1).map((l) => l.name))
        }
      }),
      { numRuns: 12 }
    )
  })

  it("opens every next wicket of both innings watched ball by ball", async () => {
    const balls = Array.from({ length: 245 }, () => DURATION / 240)
    const { harness, event } = await playThrough("ball by ball", balls)
    const final = matchAt(event, START + DURATION)!
    for (const side of [HOME, AWAY]) {
      const innings = inningsOf(final, side)!
      const fallen = innings.wicketsAt.filter((ball) => ball < innings.runs.length - 1 || !innings.complete).length
      const expected = Array.from({ length: Math.min(9, fallen) }, (_, i) => fallOfWicketName(i + 2, side))
      expect(expected.length, side).toBeGreaterThan(0)
      expect(wicketLines(harness.opened.filter((o) => runCountOf(o.name).side === side)), side).toEqual(expected)
    }
  })

  it("waits, suspended with no prices, for the second innings, and is priced from its first ball", async () => {
    const rows = fixtures(START, true).filter((row) => row.eventId === "c")
    const line = rows.find((row) => row.name === fallOfWicketName(1, AWAY))!
    const harness = simulatorHarness(rows, { seed: 1, secret: "waits" })
    await Effect.runPromise(harness.simulator.load(START + DURATION / 4))
    expect(harness.latest.get(line.externalId)).toMatchObject({ status: "SUSPENDED", runners: [{ back: [], lay: [] }] })
    // A tick later it is still waiting (not reopened, nor published again).
    const version = harness.latest.get(line.externalId)!.version
    harness.simulator.tick(START + DURATION / 4 + 5000)
    expect(harness.latest.get(line.externalId)!.version).toBe(version)
    // The second innings' first ball is about to be bowled: the line is offered.
    const begun = START + (120.5 * DURATION) / 240
    const event = { id: "c", name: NAME, sportCode: "4", startsAt: START, seed: seedFor("waits", "c") }
    expect(matchAt(event, begun)!.progress).toMatchObject({ innings: 2, balls: 0 })
    await Effect.runPromise(harness.scoresAt(begun))
    harness.simulator.tick(begun + 5000)
    expect(harness.latest.get(line.externalId)).toMatchObject({ status: "OPEN", runners: [{ back: [{ price: expect.any(Number) }] }] })
  })
})

describe("the runs of one over", () => {
  it("opens once the over before it is bowled, in either innings while it goes on, and settles once on the runs scored in it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), steps, async (n, lengths) => {
        const { rows, harness, event } = await playThrough(`secret ${n}`, lengths)
        const lines = [...rows, ...harness.opened].filter((row) => runCountOf(row.name).kind === "over")
        expect(lines.length).toBeGreaterThanOrEqual(2)
        for (const line of lines) {
          const count = runCountOf(line.name)
          if (count.kind !== "over") continue
          const innings = inningsAt(event, line.name, START + DURATION)!
          const runsAfter = (balls: number) => (balls <= 0 ? 0 : innings.runs[Math.min(balls, innings.runs.length) - 1]!)
          const settlements = harness.settlements.filter((s) => s.externalId === line.externalId)
          expect(settlements, line.name).toHaveLength(1)
          expect(settlements[0]!.result, line.name).toBe(String(runsAfter(count.over * 6) - runsAfter(count.over * 6 - 6)))
          const then = inningsAt(event, line.name, settlements[0]!.now)
          expect(then !== undefined && (then.balls >= count.over * 6 || then.complete), line.name).toBe(true)
          if (count.over === 1) continue
          const at = inningsAt(event, line.name, harness.opened.find((o) => o.name === line.name)!.now)!
          expect(at.complete, line.name).toBe(false)
          expect(Math.floor(at.balls / 6) + 1, line.name).toBe(count.over)
        }
      }),
      { numRuns: 12 }
    )
  })

  it("opens each over of both innings before its first ball when the match is watched ball by ball", async () => {
    const balls = Array.from({ length: 245 }, () => DURATION / 240)
    const { harness, event } = await playThrough("ball by ball", balls)
    for (const side of [HOME, AWAY]) {
      const innings = inningsOf(matchAt(event, START + DURATION), side)!
      const overs = harness.opened.flatMap((o) => {
        const count = runCountOf(o.name)
        return count.kind === "over" && count.side === side ? [{ over: count.over, balls: inningsAt(event, o.name, o.now)!.balls }] : []
      })
      const expected = Array.from({ length: Math.ceil(innings.runs.length / 6) - 1 }, (_, i) => i + 2)
      expect(overs.map((o) => o.over), side).toEqual(expected)
      for (const { over, balls: bowled } of overs) expect(bowled, overRunsName(over, side)).toBe((over - 1) * 6)
    }
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
