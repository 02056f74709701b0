import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { forecastOf } from "../../server/odds/forecast.ts"
import { commitmentOf, drawsOf, seedFor } from "../../server/odds/fair.ts"
import { matchAt, raceChances, raceWinner } from "../../server/odds/simulation.ts"
import { type Played, SPORTS } from "../../server/odds/sports.ts"
import { frequency, given } from "./odds-harness.ts"

describe("an event's seed and draws", () => {
  it("come from the secret and the event's id only: the same on every server, another for another secret", () => {
    const seed = seedFor("0".repeat(64), "event-1")
    expect(seed).toMatch(/^[0-9a-f]{64}$/)
    expect(seedFor("0".repeat(64), "event-1")).toBe(seed)
    expect(seedFor("1".repeat(64), "event-1")).not.toBe(seed)
    expect(seedFor("0".repeat(64), "event-2")).not.toBe(seed)
    // The commitment is SHA-256 of the seed's hex text, as a player checks it.
    expect(commitmentOf(seed)).toBe(createHash("sha256").update(seed).digest("hex"))
    const a = drawsOf(seed, "match")
    const b = drawsOf(seed, "match")
    const draws = Array.from({ length: 20 }, () => a())
    expect(Array.from({ length: 20 }, () => b())).toEqual(draws)
    for (const draw of draws) expect(draw >= 0 && draw < 1).toBe(true)
    expect(drawsOf(seed, "race")()).not.toBe(draws[0])
  })

  it("play the match: the same seed the same match, another seed another", () => {
    const event = { id: "e1", name: "India v Australia", sportCode: "4", startsAt: 0 }
    const end = 3 * 3600_000
    const one = matchAt({ ...event, seed: seedFor("s", "e1") }, end)!
    expect(matchAt({ ...event, seed: seedFor("s", "e1") }, end)).toEqual(one)
    const others = ["t", "u", "v"].map((secret) => matchAt({ ...event, seed: seedFor(secret, "e1") }, end)!.score.summary + matchAt({ ...event, seed: seedFor(secret, "e1") }, end)!.home)
    expect(new Set([...others, one.score.summary + one.home]).size).toBeGreaterThan(1)
  })

  it("draw a race's winner by its runners' chances", () => {
    // Over many races, each runner wins about as often as its chance says (a chance's error within 4 standard errors).
    const expected = [0, 0, 0, 0, 0, 0]
    const won = [0, 0, 0, 0, 0, 0]
    const races = 4000
    for (let i = 0; i < races; i++) {
      const seed = seedFor("races", String(i))
      const chances = raceChances(seed, 6)
      chances.forEach((c, k) => (expected[k]! += c))
      won[raceWinner(seed, 6)]! += 1
    }
    for (let k = 0; k < 6; k++) expect(Math.abs(won[k]! - expected[k]!)).toBeLessThan(4 * Math.sqrt(races * 0.25))
  })
})

describe("the forecast: a match's chances worked out exactly from its strengths and its rules", () => {
  it("cricket: the result and the fancy lines before the start", () => {
    const played = SPORTS["4"]!(given([0.7], 0), "Home v Away", "e")
    const forecast = forecastOf(played.strengths, played.at(0).progress)
    const home = frequency("4", [0.7], 3000, (p) => {
      const final = p.at(1)
      return final.home > final.away
    })
    expect(Math.abs(home.rate - forecast.result[0])).toBeLessThan(home.band)
    // The chance the first six overs reach 50 runs.
    const six = forecast.reach!({ side: "H", kind: "overs", overs: 6 })!
    const reached = frequency("4", [0.7], 3000, (p) => (p.at(1).innings!.runs[35] ?? 0) >= 50)
    expect(Math.abs(reached.rate - six[50]!)).toBeLessThan(reached.band)
    // The first wicket falls at 20 or more, the third at 60 or more (the innings' runs if it does not fall).
    for (const [n, line] of [[1, 20], [3, 60]] as const) {
      const wicket = forecast.reach!({ side: "H", kind: "wicket", wicket: n })!
      const fell = frequency("4", [0.7], 3000, (p) => {
        const innings = p.at(1).innings!
        const at = innings.wicketsAt[n - 1]
        return (at === undefined ? innings.runs.at(-1)! : innings.runs[at]!) >= line
      })
      expect(Math.abs(fell.rate - wicket[line]!), `wicket ${n}`).toBeLessThan(fell.band)
    }
    // The first over's runs reach 8.
    const over = forecast.reach!({ side: "H", kind: "over", over: 1 })!
    const eight = frequency("4", [0.7], 3000, (p) => (p.at(1).innings!.runs[5] ?? 0) >= 8)
    expect(Math.abs(eight.rate - over[8]!)).toBeLessThan(eight.band)
    // Each innings' total odd: the chase's worked out for every target the first innings may set.
    for (const [space, runs] of [["odd-even H", (p: Played) => p.at(1).home], ["odd-even A", (p: Played) => p.at(1).away]] as const) {
      const odd = frequency("4", [0.7], 3000, (p) => runs(p) % 2 === 1)
      expect(Math.abs(odd.rate - forecast.spaces![space]!.odd!), space).toBeLessThan(odd.band)
      expect(forecast.spaces![space]!.odd! + forecast.spaces![space]!.even!).toBeCloseTo(1, 9)
    }
  })

  it("cricket in play: the chances at a moment of each match say how often the side wins from there", () => {
    // Calibration: over matches, the sum of the chances given at 80% of the time is the number of wins after it.
    let predicted = 0
    let won = 0
    const count = 200
    for (let i = 0; i < count; i++) {
      const played = SPORTS["4"]!(given([0.5], 1000 + i), "Home v Away", "e")
      const at = played.at(0.8)
      if (at.finished) continue
      predicted += forecastOf(played.strengths, at.progress).result[1]
      const final = played.at(1)
      if (final.away > final.home) won++
    }
    expect(Math.abs(won - predicted)).toBeLessThan(4 * Math.sqrt(count * 0.25))
  })

  it("football: the result and over 2.5 goals, before the start and at half-time", () => {
    const played = SPORTS["1"]!(given([0.8, 0.3], 0), "Home v Away", "e")
    for (const fraction of [0, 0.5]) {
      const at = played.at(fraction)
      const forecast = forecastOf(played.strengths, at.progress)
      // From this score at this minute (the first match's), many times over.
      const same = (p: ReturnType<NonNullable<(typeof SPORTS)[string]>>) => {
        const then = p.at(fraction)
        return then.home === at.home && then.away === at.away
      }
      let n = 0
      let draws = 0
      let overs = 0
      for (let i = 0; i < 20_000 && n < 4000; i++) {
        const p = SPORTS["1"]!(given([0.8, 0.3], i + 7), "Home v Away", "e")
        if (!same(p)) continue
        n++
        const final = p.at(1)
        if (final.home === final.away) draws++
        if (final.home + final.away > 2.5) overs++
      }
      const band = 4 * Math.sqrt(0.25 / n)
      expect(Math.abs(draws / n - forecast.result[2])).toBeLessThan(band)
      expect(Math.abs(overs / n - forecast.over!(2.5))).toBeLessThan(band)
    }
  })

  it("tennis and basketball: who wins", () => {
    for (const [sport, strengths] of [["2", [0.62]], ["7522", [0.7, 0.4]]] as const) {
      const played = SPORTS[sport]!(given(strengths, 0), "Home v Away", "e")
      const forecast = forecastOf(played.strengths, played.at(0).progress)
      const home = frequency(sport, strengths, 3000, (p) => {
        const final = p.at(1)
        return final.home > final.away
      })
      expect(Math.abs(home.rate - forecast.result[0]), sport).toBeLessThan(home.band)
    }
  })
})
