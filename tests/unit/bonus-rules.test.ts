import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  bonusRulesFromFields, bonusRulesOf, bonusRulesProblem, DEFAULT_BONUS_RULES, MAX_CAP, referralGrant, referralRuleText, welcomeGrant, welcomeTermsText
} from "../../src/domain/bonusRules.ts"

const rules = DEFAULT_BONUS_RULES

describe("bonus rules", () => {
  it("grant a share of the deposit up to the cap, with the wagering it asks", () => {
    expect(welcomeGrant(rules.welcome, 2000_00)).toEqual({ amountPaise: 2000_00, wageringPaise: 10_000_00 })
    expect(welcomeGrant(rules.welcome, 50_000_00)).toEqual({ amountPaise: 10_000_00, wageringPaise: 50_000_00 })
    expect(welcomeGrant({ ...rules.welcome, percent: 33, cap: 0.5 }, 1_01)).toEqual({ amountPaise: 33, wageringPaise: 165 })
    expect(referralGrant(rules.referral, 2500_00)).toEqual({ rewardPaise: 250_00, wageringPaise: 2500_00 })
    expect(referralGrant({ ...rules.referral, wagerTimes: 3 }, 20_000_00)).toEqual({ rewardPaise: 1000_00, wageringPaise: 60_000_00 })
  })

  it("never grant more than the cap or the share, and always whole paise", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: MAX_CAP * 100 }), fc.integer({ min: 0, max: 1e9 }), (percent, capPaise, deposit) => {
      const { amountPaise } = welcomeGrant({ ...rules.welcome, percent, cap: capPaise / 100 }, deposit)
      expect(Number.isSafeInteger(amountPaise)).toBe(true)
      expect(amountPaise).toBeLessThanOrEqual(capPaise)
      expect(amountPaise).toBeLessThanOrEqual((deposit * percent) / 100)
    }))
  })

  it("accept the defaults and refuse what is out of range", () => {
    expect(bonusRulesProblem(rules)).toBeUndefined()
    const welcome = (change: object) => bonusRulesProblem({ ...rules, welcome: { ...rules.welcome, ...change } })
    const referral = (change: object) => bonusRulesProblem({ ...rules, referral: { ...rules.referral, ...change } })
    expect(welcome({ percent: -1 })).toMatch(/percent/)
    expect(welcome({ percent: 501 })).toMatch(/percent/)
    expect(welcome({ percent: Number.NaN })).toMatch(/percent/)
    expect(welcome({ cap: 0 })).toMatch(/cap/)
    expect(welcome({ cap: MAX_CAP + 1 })).toMatch(/cap/)
    expect(welcome({ cap: 1.234 })).toMatch(/cap/)
    expect(welcome({ wagerTimes: 0 })).toBeUndefined()
    expect(welcome({ wagerTimes: 51 })).toMatch(/wagering/)
    expect(welcome({ wagerTimes: 2.5 })).toMatch(/wagering/)
    expect(welcome({ code: "" })).toMatch(/code/)
    expect(welcome({ code: "lower" })).toMatch(/code/)
    expect(welcome({ title: "x".repeat(61) })).toMatch(/title/)
    expect(referral({ percent: 101 })).toMatch(/referral reward's percent/)
    expect(referral({ wagerTimes: 0 })).toMatch(/referral reward's wagering/)
    expect(bonusRulesOf({ ...rules, welcome: { ...rules.welcome, code: " X1 ", title: " T " } }).welcome).toMatchObject({ code: "X1", title: "T" })
  })

  it("read the desk's fields over the rules the server has; an emptied number is not a number", () => {
    expect(bonusRulesFromFields({}, rules)).toEqual(rules)
    const read = bonusRulesFromFields({ welcomePercent: "150", referralCap: "250.50", welcomeTitle: "Big" }, rules)
    expect(read).toEqual({ welcome: { ...rules.welcome, percent: 150, title: "Big" }, referral: { ...rules.referral, cap: 250.5 } })
    expect(bonusRulesProblem(bonusRulesFromFields({ welcomeCap: " " }, rules))).toMatch(/cap/)
  })

  it("state the terms as the player reads them", () => {
    expect(welcomeTermsText(rules.welcome)).toBe("No bonus yet. Your first approved deposit brings a 100% welcome bonus, up to ₹10,000.00, to wager 5 times before you claim it.")
    expect(welcomeTermsText({ percent: 50, cap: 500, wagerTimes: 0 })).toBe("No bonus yet. Your first approved deposit brings a 50% welcome bonus, up to ₹500.00, yours to claim at once.")
    expect(referralRuleText(rules.referral)).toMatch(/^Friends who sign up with it earn you 10% of their first approved deposit \(up to ₹1,000.00\), in your referral bonus, once they have wagered that deposit on settled markets\./)
    expect(referralRuleText({ percent: 5, cap: 200, wagerTimes: 2 })).toMatch(/earn you 5% .* \(up to ₹200.00\).* wagered that deposit twice on settled markets/)
  })
})
