import { describe, expect, it } from "vitest"
import { claimOf } from "../../src/domain/eventBook.ts"
import { rulesOf } from "../../src/domain/marketRules.ts"
import { DEMO_SPORTS } from "../../server/seed/catalogue.ts"

describe("a market's rules", () => {
  const markets = DEMO_SPORTS.flatMap((sport) => {
    const fixture = sport.leagues[0]!.fixtures[0]!
    const [home = fixture, away = ""] = fixture.split(" v ")
    return sport.markets(home, away, fixture).map((m) => ({ name: m.name, marketType: m.type, runners: m.runners.map((name) => ({ name })) }))
  })

  it("are the same for markets settled on the same kind of space, and differ from one kind to another", () => {
    const kindOf = (market: (typeof markets)[number]) => {
      const claim = claimOf(market)
      return claim.kind === "runs" ? "fancy" : claim.space.replace(/^(total|odd-even) .*/, "$1")
    }
    const summaries = new Map<string, string>()
    for (const market of markets) {
      const { summary, rules } = rulesOf(market)
      expect(rules.length, market.name).toBeGreaterThan(1)
      const kind = kindOf(market)
      expect(summaries.get(kind) ?? summary, market.name).toBe(summary)
      summaries.set(kind, summary)
    }
    expect(new Set(summaries.values()).size).toBe(summaries.size)
    expect([...summaries.keys()].sort()).toEqual(["btts", "fancy", "half-time", "odd-even", "result", "set 1", "tie", "total"])
  })

  it("say how each kind is priced and what voids it: a bookmaker's rate per 100, a session in the rain", () => {
    expect(rulesOf({ name: "Bookmaker", marketType: "BOOKMAKER" }).rules.join(" ")).toContain("per 100")
    expect(rulesOf({ name: "Match Odds", marketType: "EXCHANGE" }).rules.join(" ")).toContain("tied, every bet is void")
    expect(rulesOf({ name: "6 Over Runs MI", marketType: "FANCY" }).rules.join(" ")).toContain("Rain")
  })
})
