import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { indiaMoment } from "../../src/domain/ranges.ts"
import { can, DEFAULT_THRESHOLDS, decidedBy, isStaffRole, needsSecondApprover, PERMISSIONS, permissionsOf, rejectionRemark, secondFactorRequired } from "../../src/domain/staff.ts"
import { Roles } from "../../src/schema/user.ts"

describe("the roles table", () => {
  it("gives every permission to DIRECTOR, all but staff accounts and thresholds to ADMIN, and nothing to players or agents", () => {
    expect(permissionsOf(Roles.DIRECTOR)).toEqual(PERMISSIONS)
    expect(permissionsOf(Roles.ADMIN)).toEqual(PERMISSIONS.filter((p) => p !== "staff.manage" && p !== "thresholds.manage" && p !== "audit.export"))
    for (const role of Object.values(Roles)) {
      expect(isStaffRole(role)).toBe(role === Roles.DIRECTOR || role === Roles.ADMIN || role === Roles.SUPPORT_ADMIN)
      if (!isStaffRole(role)) expect(permissionsOf(role)).toEqual([])
    }
  })

  it("keeps support from money, settlement and settings", () => {
    for (const permission of ["money.adjust", "markets.settle", "markets.manage", "settings.manage", "staff.manage", "audit.read", "casino.manage"] as const) {
      expect(can(Roles.SUPPORT_ADMIN, permission), permission).toBe(false)
    }
    expect(can(Roles.SUPPORT_ADMIN, "deposits.decide")).toBe(true)
    expect(can(Roles.SUPPORT_ADMIN, "markets.read")).toBe(true)
  })

  it("asks DIRECTOR and ADMIN for a second factor, support not", () => {
    expect([Roles.DIRECTOR, Roles.ADMIN, Roles.SUPPORT_ADMIN].map(secondFactorRequired)).toEqual([true, true, false])
  })
})

describe("four eyes", () => {
  it("needs a second approver strictly above the threshold, for credits and debits alike", () => {
    expect(needsSecondApprover(DEFAULT_THRESHOLDS.adjustmentPaise, DEFAULT_THRESHOLDS.adjustmentPaise)).toBe(false)
    expect(needsSecondApprover(DEFAULT_THRESHOLDS.adjustmentPaise + 1, DEFAULT_THRESHOLDS.adjustmentPaise)).toBe(true)
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 1e12 }), (amount, threshold) =>
      needsSecondApprover(amount, threshold) === needsSecondApprover(-amount, threshold) && needsSecondApprover(amount, threshold) === Math.abs(amount) > threshold
    ))
  })
})

describe("what staff are told", () => {
  it("says who decided and when, in India time", () => {
    const at = new Date("2026-11-27T08:32:00Z")
    expect(indiaMoment(at)).toBe("27 Nov 14:02")
    expect(decidedBy("deposit request", "approved", "support", at)).toBe("This deposit request was already approved by support at 27 Nov 14:02.")
    expect(decidedBy("withdrawal request", "paid", "cli", null)).toBe("This withdrawal request was already paid by cli.")
  })

  it("joins a rejection's reason and note", () => {
    expect(rejectionRemark("Payment not received", "  no credit in the bank  ")).toBe("Payment not received: no credit in the bank")
    expect(rejectionRemark("Payment not received", " ")).toBe("Payment not received")
    expect(rejectionRemark("", "typed only")).toBe("typed only")
  })
})
