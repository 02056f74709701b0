import { describe, expect, it } from "vitest"
import { groupResults, resultDayLabel, resultText } from "../../src/domain/results.ts"
import type { SettledMarket } from "../../src/schema/results.ts"

const at = (day: number, hour: number) => new Date(2026, 10, day, hour).toISOString()
const row = (marketId: string, sport: string, settledAt: string, result: string | null = "India"): SettledMarket => ({
  marketId, market: "Match Odds", marketType: "EXCHANGE", eventId: "e", event: "India v Australia", sport, sportSlug: sport.toLowerCase(),
  league: "League", settledAt, outcome: result === null ? "void" : "result", result
})

describe("results", () => {
  const now = new Date(2026, 10, 28, 12)

  it("names a settlement's day as today, yesterday or its date", () => {
    expect(resultDayLabel(at(28, 1), now)).toBe("Today")
    expect(resultDayLabel(at(27, 23), now)).toBe("Yesterday")
    expect(resultDayLabel(at(22, 9), now)).toBe("22 Nov")
  })

  it("groups rows by day, then by sport in the order they come, keeping each group's order", () => {
    const rows = [row("a", "Cricket", at(28, 11)), row("b", "Football", at(28, 10)), row("c", "Cricket", at(28, 9)), row("d", "Cricket", at(26, 9))]
    expect(groupResults(rows, now).map((day) => [day.day, day.sports.map((s) => [s.sport, s.rows.map((r) => r.marketId)])])).toEqual([
      ["Today", [["Cricket", ["a", "c"]], ["Football", ["b"]]]],
      ["26 Nov", [["Cricket", ["d"]]]]
    ])
  })

  it("says Void for a voided market", () => {
    expect(resultText(row("a", "Cricket", at(28, 1), null))).toBe("Void")
    expect(resultText(row("a", "Cricket", at(28, 1), "143"))).toBe("143")
  })
})
