import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { adjustmentOf, MAX_ADJUSTMENT_PAISE, noteProblem, statusProblem } from "../../src/domain/deskPlayers.ts"

describe("what staff do to a player (src/domain/deskPlayers.ts)", () => {
  it("takes an adjustment of whole paise up to ₹10,00,000 with a reason, and nothing else", () => {
    expect(adjustmentOf(250.5, "Goodwill")).toEqual({ paise: 25_050 })
    expect(adjustmentOf(10_00_000, "Large")).toEqual({ paise: MAX_ADJUSTMENT_PAISE })
    for (const amount of [0, -5, 1.005, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(adjustmentOf(amount, "x"), String(amount)).toEqual({ problem: "Enter an amount in rupees, at most two decimals." })
    }
    expect(adjustmentOf(10_00_000.01, "x")).toEqual({ problem: "An adjustment is at most ₹10,00,000." })
    expect(adjustmentOf(10, "  ")).toEqual({ problem: "Give the reason: the player's statement shows it." })
  })

  it("gives every valid amount back in paise exactly", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_ADJUSTMENT_PAISE }), (paise) => {
      expect(adjustmentOf(paise / 100, "reason")).toEqual({ paise })
    }))
  })

  it("needs words for a note and a reason for a suspension", () => {
    expect(noteProblem(" \n ")).toBe("Write the note first.")
    expect(noteProblem("x".repeat(2001))).toBe("A note is at most 2,000 characters.")
    expect(noteProblem("Called the player")).toBeUndefined()
    expect(statusProblem("")).toBe("Say why.")
    expect(statusProblem("Chargeback")).toBeUndefined()
  })
})
