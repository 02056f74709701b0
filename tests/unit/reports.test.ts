import { describe, expect, it } from "vitest"
import { dailyFigures, figuresOf, lastDays, sumOver } from "../../src/domain/reports.ts"

describe("the Today figures", () => {
  it("counts India days: 30 of them ending today", () => {
    // 20:00 UTC on 27 Nov is 01:30 on 28 Nov in India.
    const days = lastDays(30, new Date("2026-11-27T20:00:00Z"))
    expect(days).toHaveLength(30)
    expect(days[29]).toBe("2026-11-28")
    expect(days[0]).toBe("2026-10-30")
  })

  it("sums a period's days and works out net cash; active players are not summed", () => {
    const rows = [
      { day: "2026-11-27", metric: "deposits" as const, value: 500_00 },
      { day: "2026-11-28", metric: "deposits" as const, value: 300_00 },
      { day: "2026-11-28", metric: "withdrawals" as const, value: 100_00 },
      { day: "2026-11-28", metric: "activePlayers" as const, value: 2 },
      { day: "2026-11-27", metric: "activePlayers" as const, value: 2 }
    ]
    expect(figuresOf({ ...sumOver(rows, ["2026-11-27", "2026-11-28"]), activePlayers: 3 })).toMatchObject({ deposits: 800_00, withdrawals: 100_00, netCash: 700_00, activePlayers: 3 })
    expect(dailyFigures(rows, ["2026-11-28"])).toEqual([{ day: "2026-11-28", ...figuresOf({ deposits: 300_00, withdrawals: 100_00, activePlayers: 2 }) }])
  })
})
