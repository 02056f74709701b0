import { describe, expect, it } from "vitest"
import {
  addMonthsInIndia,
  binding,
  classifyChange,
  closureAt,
  closureMessage,
  coolingState,
  indiaDateTime,
  inWindow,
  LIMIT_MESSAGES,
  limitAmountProblem,
  limitChangeMessage,
  limitRefusal,
  nextRealityCheck,
  parseLimitAmount,
  remaining,
  resetAt,
  timeOutEnd,
  usedInWindow,
  windowStart
} from "../../src/domain/protection.ts"
import { isRegion, REGIONS, regionFromHeader } from "../../src/domain/regions.ts"
import { validateSignUp } from "../../src/domain/validation.ts"

const HOUR = 3600_000
const DAY = 24 * HOUR
const now = new Date("2026-03-13T09:00:00.000Z") // 14:30 in India

describe("rolling windows", () => {
  it("run back from now: an amount exactly one period old has left, a millisecond younger has not", () => {
    expect(windowStart("day", now)).toEqual(new Date(now.getTime() - DAY))
    expect(windowStart("week", now)).toEqual(new Date(now.getTime() - 7 * DAY))
    expect(windowStart("month", now)).toEqual(new Date(now.getTime() - 30 * DAY))
    expect(inWindow(new Date(now.getTime() - DAY + 1), "day", now)).toBe(true)
    expect(inWindow(new Date(now.getTime() - DAY), "day", now)).toBe(false)
    expect(inWindow(new Date(now.getTime() - 30 * DAY + 1), "month", now)).toBe(true)
    expect(inWindow(new Date(now.getTime() - 30 * DAY), "month", now)).toBe(false)
    // Nothing from the future counts.
    expect(inWindow(new Date(now.getTime() + 1), "day", now)).toBe(false)
  })

  it("sum what they hold and say when the oldest amount leaves", () => {
    const entries = [
      { at: new Date(now.getTime() - 2 * DAY), amount: 500_00 },
      { at: new Date(now.getTime() - 20 * HOUR), amount: 300_00 },
      { at: new Date(now.getTime() - HOUR), amount: 200_00 },
      // A win in a loss window lowers the net loss but never opens room by leaving.
      { at: new Date(now.getTime() - 22 * HOUR), amount: -100_00 }
    ]
    expect(usedInWindow(entries, "day", now)).toBe(400_00)
    expect(usedInWindow(entries, "week", now)).toBe(900_00)
    expect(resetAt(entries, "day", now)).toEqual(new Date(now.getTime() - 20 * HOUR + DAY))
    expect(resetAt(entries, "week", now)).toEqual(new Date(now.getTime() - 2 * DAY + 7 * DAY))
    expect(resetAt([], "day", now)).toBeUndefined()
  })

  it("leave nothing below zero, and the lowest room wins", () => {
    expect(remaining(1000, 400)).toBe(600)
    expect(remaining(1000, 1400)).toBe(0)
    expect(binding([{ period: "day", remaining: 500 }, { period: "week", remaining: 200 }, { period: "month", remaining: 900 }])).toEqual({ period: "week", remaining: 200 })
    expect(binding([])).toBeUndefined()
  })
})

describe("cooling-off", () => {
  it("applies a first limit and a decrease at once, cools off an increase and a removal", () => {
    expect(classifyChange(null, 1000)).toBe("inForce")
    expect(classifyChange(1000, 500)).toBe("inForce")
    expect(classifyChange(1000, 1500)).toBe("coolingOff")
    expect(classifyChange(1000, null)).toBe("coolingOff")
    expect(classifyChange(1000, 1000)).toBe("unchanged")
    expect(classifyChange(null, null)).toBe("unchanged")
  })

  it("tells the states of a limit apart, to the millisecond of its confirmation", () => {
    const confirmableAt = new Date(now.getTime() + DAY)
    expect(coolingState({ amount: null, pending: null }, now)).toBe("none")
    expect(coolingState({ amount: 1000, pending: null }, now)).toBe("inForce")
    expect(coolingState({ amount: 1000, pending: { amount: 2000, confirmableAt } }, new Date(confirmableAt.getTime() - 1))).toBe("waiting")
    expect(coolingState({ amount: 1000, pending: { amount: null, confirmableAt } }, confirmableAt)).toBe("confirmable")
  })

  it("tells the player what happened and when", () => {
    expect(limitChangeMessage("deposit", "day", { outcome: "inForce", amount: 5000_00, inForce: null })).toBe("Your 24-hour deposit limit of ₹5,000.00 is in force now.")
    expect(limitChangeMessage("loss", "month", { outcome: "coolingOff", amount: 8000_00, inForce: 5000_00, confirmableAt: new Date(now.getTime() + DAY) }))
      .toBe("Your 30-day loss limit stays ₹5,000.00 for now. You can confirm ₹8,000.00 from 14 Mar 2026, 14:30 IST.")
    expect(limitChangeMessage("deposit", "week", { outcome: "coolingOff", amount: null, inForce: 100_00, confirmableAt: new Date(now.getTime() + DAY) }))
      .toBe("Your 7-day deposit limit stays ₹100.00 for now. You can confirm removing it from 14 Mar 2026, 14:30 IST.")
    expect(limitChangeMessage("deposit", "week", { outcome: "confirmed", amount: null, inForce: 100_00 })).toBe("Your 7-day deposit limit is removed.")
  })
})

describe("refusals", () => {
  it("name the limit, what is left and when more opens", () => {
    const resetsAt = new Date(now.getTime() + 3 * HOUR)
    expect(limitRefusal("deposit", { period: "day", limit: 5000_00, remaining: 1000_00, resetsAt }, "deposit")).toBe(
      "This deposit would pass your 24-hour deposit limit of ₹5,000.00: you can deposit up to ₹1,000.00 now; more becomes available from 13 Mar 2026, 17:30 IST."
    )
    expect(limitRefusal("loss", { period: "week", limit: 2000_00, remaining: 0, resetsAt: undefined }, "bet")).toBe(
      "You have reached your 7-day loss limit of ₹2,000.00; more becomes available as your open bets are settled."
    )
    expect(limitRefusal("loss", { period: "day", limit: 2000_00, remaining: 300_00, resetsAt }, "stake")).toMatch(
      /^This stake could take your losses past your 24-hour loss limit of ₹2,000.00: you can risk up to ₹300.00 more now/
    )
  })
})

describe("free-text amounts", () => {
  it("takes rupees as people type them", () => {
    expect(parseLimitAmount("5000")).toEqual({ paise: 5000_00 })
    expect(parseLimitAmount(" ₹ 1,00,000 ")).toEqual({ paise: 1_00_000_00 })
    expect(parseLimitAmount("100,000.5")).toEqual({ paise: 100_000_50 })
    expect(parseLimitAmount("Rs. 250.75")).toEqual({ paise: 250_75 })
  })

  it("refuses anything else with a message", () => {
    expect(parseLimitAmount("")).toEqual({ error: LIMIT_MESSAGES.required })
    expect(parseLimitAmount("abc")).toEqual({ error: LIMIT_MESSAGES.invalid })
    expect(parseLimitAmount("10.555")).toEqual({ error: LIMIT_MESSAGES.invalid })
    expect(parseLimitAmount("1,0000")).toEqual({ error: LIMIT_MESSAGES.invalid })
    expect(parseLimitAmount("-5")).toEqual({ error: LIMIT_MESSAGES.invalid })
    expect(parseLimitAmount("0")).toEqual({ error: LIMIT_MESSAGES.positive })
    expect(parseLimitAmount("100000001")).toEqual({ error: LIMIT_MESSAGES.tooLarge })
    expect(limitAmountProblem(0.001)).toBe(LIMIT_MESSAGES.invalid)
    expect(limitAmountProblem(-1)).toBe(LIMIT_MESSAGES.positive)
    expect(limitAmountProblem(500)).toBeUndefined()
  })
})

describe("time-out and self-exclusion", () => {
  it("counts a time-out in days and an exclusion in calendar months on India's calendar", () => {
    expect(timeOutEnd(now, 42)).toEqual(new Date(now.getTime() + 42 * DAY))
    expect(addMonthsInIndia(now, 6)).toEqual(new Date("2026-09-13T09:00:00.000Z"))
    expect(addMonthsInIndia(now, 60)).toEqual(new Date("2031-03-13T09:00:00.000Z"))
    // 31 August 01:30 in India (30 August in UTC), plus 6 months: 28 February 01:30 in India (2027 is no leap year).
    expect(addMonthsInIndia(new Date("2026-08-30T20:00:00.000Z"), 6)).toEqual(new Date("2027-02-27T20:00:00.000Z"))
  })

  it("keeps the account closed through the exclusion, after it until the player asks, and 24 hours more", () => {
    const excludedUntil = new Date(now.getTime() + 10 * DAY)
    expect(closureAt({ timeOutUntil: null, excludedUntil, returnRequestedAt: null }, now)).toEqual({ reason: "SelfExcluded", until: excludedUntil, stage: "excluded" })
    const after = new Date(excludedUntil.getTime() + DAY)
    expect(closureAt({ timeOutUntil: null, excludedUntil, returnRequestedAt: null }, after)).toEqual({ reason: "SelfExcluded", until: null, stage: "ended" })
    const asked = after
    const reopens = new Date(asked.getTime() + DAY)
    expect(closureAt({ timeOutUntil: null, excludedUntil, returnRequestedAt: asked }, new Date(reopens.getTime() - 1))).toEqual({ reason: "SelfExcluded", until: reopens, stage: "returning" })
    expect(closureAt({ timeOutUntil: null, excludedUntil, returnRequestedAt: asked }, reopens)).toBeUndefined()
  })

  it("closes for a time-out until its last millisecond", () => {
    const until = timeOutEnd(now, 1)
    expect(closureAt({ timeOutUntil: until, excludedUntil: null, returnRequestedAt: null }, new Date(until.getTime() - 1))).toEqual({ reason: "TimedOut", until })
    expect(closureAt({ timeOutUntil: until, excludedUntil: null, returnRequestedAt: null }, until)).toBeUndefined()
    expect(closureMessage({ reason: "TimedOut", until })).toBe(
      "You are taking a break until 14 Mar 2026, 14:30 IST. Bets, casino games and deposits are closed until then; you can still withdraw your balance."
    )
  })
})

describe("reality checks", () => {
  it("come an interval after the session started or the last answer, never when off", () => {
    expect(nextRealityCheck(30, now)).toEqual(new Date(now.getTime() + 30 * 60_000))
    expect(nextRealityCheck(0, now)).toBeUndefined()
  })
})

describe("regions and sign-up", () => {
  it("lists India's 28 states and 8 union territories by their current ISO codes", () => {
    expect(REGIONS.filter((r) => r.kind === "state")).toHaveLength(28)
    expect(REGIONS.filter((r) => r.kind === "territory")).toHaveLength(8)
    expect(new Set(REGIONS.map((r) => r.code)).size).toBe(36)
    expect(isRegion("TS")).toBe(true)
    expect(isRegion("TG")).toBe(false)
  })

  it("reads a proxy's region header in its usual spellings", () => {
    expect(regionFromHeader("IN-MH")).toBe("MH")
    expect(regionFromHeader(" ka ")).toBe("KA")
    expect(regionFromHeader("IN-OR")).toBe("OD")
    expect(regionFromHeader("IN-TG")).toBe("TS")
    expect(regionFromHeader("US-CA")).toBeUndefined()
    expect(regionFromHeader("ZZ")).toBeUndefined()
    expect(regionFromHeader(undefined)).toBeUndefined()
  })

  it("asks for the age confirmation and the state before anything is sent", () => {
    const form = { name: "Ravi", mobileNo: "9876543210", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42" }
    expect(validateSignUp({ ...form, ageConfirmed: true, region: "MH" })).toEqual({})
    expect(validateSignUp({ ...form, ageConfirmed: false, region: "" })).toEqual({
      ageConfirmed: "Please confirm you are 18 or older and accept the terms",
      region: "Please choose the state you live in"
    })
  })

  it("writes times on India's clock", () => {
    expect(indiaDateTime(new Date("2026-12-31T18:29:00.000Z"))).toBe("31 Dec 2026, 23:59 IST")
    expect(indiaDateTime(new Date("2026-12-31T18:30:00.000Z"))).toBe("1 Jan 2027, 00:00 IST")
  })
})
