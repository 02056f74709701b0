import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BONUS_ACTION_FROM, canActOn, isLiveBonus, wageringProgress } from "../../src/domain/bonus.ts"
import { depositFieldValue, depositPayload, screenshotProblem, SCREENSHOT_MESSAGES } from "../../src/domain/payments.ts"
import { lastWeeks, weekOf, weeksBetween } from "../../src/domain/ranges.ts"
import { REFERRAL_PARAM, referralLink } from "../../src/domain/referral.ts"
import { runningTotals, withRunningProfit } from "../../src/domain/statements.ts"
import type { StatementRow } from "../../src/schema/statements.ts"

describe("the deposit payload (SPEC sections 3 and 7)", () => {
  const upi = { _id: "acc-upi", type: "upi" } as const
  const bank = { _id: "acc-bank", type: "bank" } as const

  it("always carries txnRef, empty when only a screenshot proves the payment", () => {
    expect(depositPayload(upi, { amount: "500", txnRef: "" }, "data:image/png;base64,AA")).toEqual({
      amount: 500, accountId: "acc-upi", type: "upi", txnRef: "", baseImage: "data:image/png;base64,AA"
    })
    expect(depositPayload(bank, { amount: "1500.50", txnRef: " UTR1 " }, undefined)).toEqual({ amount: 1500.5, accountId: "acc-bank", type: "bank", txnRef: "UTR1" })
  })

  it("sends the UPI modal's screenshot as baseImage and the bank modal's as screenshot", () => {
    expect(depositPayload(bank, { amount: "500", txnRef: "UTR" }, "data:x")).toMatchObject({ screenshot: "data:x" })
    expect(depositPayload(bank, { amount: "500", txnRef: "UTR" }, "data:x")).not.toHaveProperty("baseImage")
    expect(depositPayload(upi, { amount: "500", txnRef: "UTR" }, "data:x")).not.toHaveProperty("screenshot")
  })

  it("keeps the fields as the form shows them, and checks a picked file", () => {
    expect(depositFieldValue("amount", "₹1,500.5")).toEqual({ amount: "1500.5" })
    expect(depositFieldValue("txnRef", "x".repeat(80))).toEqual({ txnRef: "x".repeat(64) })
    expect(screenshotProblem({ type: "image/gif", size: 10 })).toBe(SCREENSHOT_MESSAGES.type)
    expect(screenshotProblem({ type: "image/png", size: 5 * 1024 * 1024 + 1 })).toBe(SCREENSHOT_MESSAGES.size)
    expect(screenshotProblem({ type: "image/webp", size: 5 * 1024 * 1024 })).toBeUndefined()
  })
})

describe("the bonus lifecycle", () => {
  it("lets each action act only on the statuses the server moves it from", () => {
    expect(BONUS_ACTION_FROM).toEqual({ activate: ["available"], claim: ["completed"], forfeit: ["available", "active", "completed"] })
    expect(canActOn("claim", "active")).toBe(false)
    expect(isLiveBonus("claimed") || isLiveBonus("forfeited")).toBe(false)
  })

  it("shows the wagering in whole percent, never 100 before it is met", () => {
    expect(wageringProgress({ wagered: 4999, wageringRequired: 5000 })).toBe(99)
    expect(wageringProgress({ wagered: 7000, wageringRequired: 5000 })).toBe(100)
    expect(wageringProgress({ wagered: 0, wageringRequired: 0 })).toBe(100)
  })
})

describe("running figures", () => {
  it("adds in paise: the last running total is the exact sum, whatever the amounts", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 200 }), (paise) => {
      const totals = runningTotals(0, paise.map((p) => p / 100))
      expect(totals).toHaveLength(paise.length)
      if (paise.length) expect(totals.at(-1)).toBe(paise.reduce((a, b) => a + b, 0) / 100)
    }))
    expect(runningTotals(100, [0.1, 0.2])).toEqual([100.1, 100.3])
  })

  it("gives each P/L row (newest first) the period's P/L up to and including it", () => {
    const row = (id: string, amount: number): StatementRow => ({ _id: id, kind: "bet.settle", title: "Bet settled", description: id, reference: null, createdAt: "2026-01-01T00:00:00.000Z", credit: 0, debit: 0, amount, balance: 0 })
    const rows = [row("newest", -0.3), row("middle", 0.2), row("oldest", 0.1)]
    expect(withRunningProfit(rows).map(({ row, running }) => [row._id, running])).toEqual([["newest", 0], ["middle", 0.3], ["oldest", 0.1]])
  })
})

describe("the weekly referral range", () => {
  it("spans whole India weeks, Sunday to Saturday, this week the last", () => {
    const now = new Date("2026-01-07T12:00:00Z")
    const { from, to } = lastWeeks(8, now)
    expect(to).toEqual(weekOf(now).to)
    expect(weeksBetween(from, to)).toHaveLength(8)
    expect(weekOf(from).from).toEqual(from)
  })
})

describe("the referral link", () => {
  it("is the home page with the code in the parameter that opens Register", () => {
    expect(referralLink("https://khel.example", "AB12CD34")).toBe("https://khel.example/?referral_code=AB12CD34")
    expect(new URL(referralLink("https://khel.example", "a b&c")).searchParams.get(REFERRAL_PARAM)).toBe("a b&c")
  })
})
