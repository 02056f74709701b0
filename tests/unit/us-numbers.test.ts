import { describe, expect, it } from "vitest"
import { normalizePhone } from "../../src/domain/phone.ts"
import { isUsGeographic } from "../../src/domain/usNumbers.ts"

describe("+1 numbers a code may go to", () => {
  it("takes US geographic area codes", () => {
    for (const number of ["+14155552671", "+12125551234", "+13055551234", "+16505551234", "+19175551234", "+12015550123"]) {
      expect(isUsGeographic(number), number).toBe(true)
    }
  })

  it("refuses premium-rate, toll-free and personal numbers, and the other NANP countries and territories", () => {
    // +1 900 premium rate, 800/888 toll free, 500 personal; Jamaica, the Dominican Republic, Barbados, Canada, Puerto Rico.
    for (const number of ["+19005551234", "+18005551234", "+18885551234", "+15005551234", "+18765551234", "+18095551234", "+12465551234", "+16135551234", "+17875551234"]) {
      expect(normalizePhone(number), number).toBe(number)
      expect(isUsGeographic(number), number).toBe(false)
    }
  })
})
