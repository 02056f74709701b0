import { describe, expect, it } from "vitest"
import { claimOf } from "../../src/domain/eventBook.ts"
import { forecastOf } from "../../server/odds/forecast.ts"
import { winnerOf } from "../../server/odds/Lifecycle.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { type Played, shortName, SPORTS } from "../../server/odds/sports.ts"
import { DEMO_SPORTS } from "../../server/seed/catalogue.ts"
import { frequency, given } from "./odds-harness.ts"

describe("the markets of a match: priced from its forecast", () => {
  it("football: both teams to score and the half-time result, before the start and during the first half", () => {
    for (const fraction of [0, 0.2]) {
      const at = (p: Played) => p.at(fraction)
      const first = SPORTS["1"]!(given([0.6, 0.5], 0), "Home v Away", "e")
      const spaces = forecastOf(first.strengths, at(first).progress).spaces!
      // From the first match's score at that moment, many times over.
      let n = 0
      let both = 0
      let homeAtHalf = 0
      for (let i = 0; i < 30_000 && n < 3000; i++) {
        const p = SPORTS["1"]!(given([0.6, 0.5], i + 11), "Home v Away", "e")
        if (at(p).home !== at(first).home || at(p).away !== at(first).away) continue
        n++
        const final = p.at(1)
        if (final.home > 0 && final.away > 0) both++
        const half = p.at(0.5)
        if (half.home > half.away) homeAtHalf++
      }
      const band = 4 * Math.sqrt(0.25 / n)
      expect(Math.abs(both / n - spaces.btts!.yes!), `btts at ${fraction}`).toBeLessThan(band)
      expect(Math.abs(homeAtHalf / n - spaces["half-time"]!["0"]!), `half-time at ${fraction}`).toBeLessThan(band)
    }
  })

  it("tennis: the first set; kabaddi and basketball: the points line", () => {
    const tennis = SPORTS["2"]!(given([0.6], 0), "Home v Away", "e")
    const set = forecastOf(tennis.strengths, tennis.at(0).progress).spaces!["set 1"]!
    const firstSetHome = frequency("2", [0.6], 3000, (p) => p.at(1).score.summary.split(" ")[0]!.split("-").map(Number).reduce((h, a) => h - a) > 0)
    expect(Math.abs(firstSetHome.rate - set["0"]!)).toBeLessThan(firstSetHome.band)
    for (const [sport, line] of [["99994", 46.5], ["7522", 239.5]] as const) {
      const played = SPORTS[sport]!(given([0.55, 0.45], 0), "Home v Away", "e")
      const over = forecastOf(played.strengths, played.at(0).progress).over!(line)
      const seen = frequency(sport, [0.55, 0.45], 2000, (p) => p.at(1).home + p.at(1).away > line)
      expect(Math.abs(seen.rate - over), sport).toBeLessThan(seen.band)
      // A line near the middle: neither side of it a foregone conclusion.
      expect(over).toBeGreaterThan(0.2)
      expect(over).toBeLessThan(0.8)
    }
  })
})

describe("the markets of a match: settled from its final score", () => {
  it("every market of every sport settles on exactly the runner the score says, or voids only a tie with no draw to back", () => {
    for (const sport of DEMO_SPORTS.filter((s) => SPORTS[s.code])) {
      for (let i = 0; i < 60; i++) {
        const event = { id: `e${i}`, name: sport.leagues[0]!.fixtures[0]!, sportCode: sport.code, startsAt: 0, seed: seedFor("markets", `${sport.code}:${i}`) }
        const [home, away] = event.name.split(" v ") as [string, string]
        const final = matchAt(event, matchDuration(sport.code))!
        const half = matchAt(event, matchDuration(sport.code) / 2)!
        for (const spec of sport.markets(home, away, event.name).filter((m) => m.type !== "FANCY")) {
          const runners = spec.runners.map((name, k) => ({ selectionId: `s${k}`, name }))
          const market = { name: spec.name, marketType: spec.type, runners }
          const winner = runners.find((r) => r.selectionId === winnerOf(market, sport.code, final, event.seed))?.name
          const where = `${sport.name} ${spec.name} ${final.score.summary}`
          const total = final.goals ?? final.home + final.away
          const line = /^Over\/Under ([\d.]+)/.exec(spec.name)?.[1]
          if (line) expect(winner, where).toBe(`${total > Number(line) ? "Over" : "Under"} ${line} ${spec.name.split(" ").at(-1)}`)
          else if (spec.name === "Both Teams To Score") expect(winner, where).toBe(final.home > 0 && final.away > 0 ? "Yes" : "No")
          else if (spec.name === "Tied Match") expect(winner, where).toBe(final.home === final.away ? "Yes" : "No")
          else if (spec.name.startsWith("Innings Runs Odd/Even ")) {
            const runs = spec.name.endsWith(` ${shortName(home)}`) ? final.home : final.away
            expect(winner, where).toBe(runs % 2 === 1 ? "Odd" : "Even")
          }
          else if (spec.name === "Half Time") expect(winner, where).toBe(half.home > half.away ? home : half.away > half.home ? away : "The Draw")
          else if (spec.name === "Set 1 Winner") {
            const [h, a] = final.score.summary.split(" ")[0]!.split("-").map(Number) as [number, number]
            expect(winner, where).toBe(h > a ? home : away)
          } else {
            expect(claimOf(market)).toMatchObject({ space: "result" })
            const draw = spec.runners.includes("The Draw") ? "The Draw" : undefined
            expect(winner, where).toBe(final.home > final.away ? home : final.away > final.home ? away : draw)
          }
        }
      }
    }
  })
})
