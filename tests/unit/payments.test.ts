import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  isBankAccountNumber,
  isIfsc,
  isUpiId,
  maskAccount,
  nearReferences,
  normalizeReference,
  parseAmount,
  PAYMENT_MESSAGES,
  referenceProblem,
  upiPayUrl,
  validateAccount,
  validateDeposit,
  validateWithdrawal
} from "../../src/domain/payments.ts"
import { IST_OFFSET_MINUTES, indiaDay, lastIndiaDays, parseInstant, resolveRange, weekOf, weeksBetween } from "../../src/domain/ranges.ts"
import { sniffImage } from "../../server/uploads/Uploads.ts"

describe("deposit and withdrawal rules", () => {
  it("checks the deposit form in the order of SPEC section 5, then the reference's shape", () => {
    const upi = (input: { amount: string | number; txnRef: string; hasScreenshot: boolean }) => validateDeposit({ ...input, type: "upi" })
    expect(upi({ amount: "", txnRef: "", hasScreenshot: false })).toBe("Please enter amount")
    expect(upi({ amount: "0", txnRef: "x", hasScreenshot: false })).toBe("Please enter amount")
    expect(upi({ amount: "abc", txnRef: "x", hasScreenshot: false })).toBe("Please enter amount")
    expect(upi({ amount: "99.99", txnRef: "x", hasScreenshot: false })).toBe("Min Deposit amount is 100")
    expect(upi({ amount: "100", txnRef: " ", hasScreenshot: false })).toBe("Please provide reference-id or upload a screenshot.")
    expect(upi({ amount: "100", txnRef: "", hasScreenshot: true })).toBeUndefined()
    expect(upi({ amount: 100.5, txnRef: "412345678901", hasScreenshot: false })).toBeUndefined()
    expect(upi({ amount: "100.555", txnRef: "412345678901", hasScreenshot: false })).toBe(PAYMENT_MESSAGES.badAmount)
    expect(upi({ amount: "2000000", txnRef: "412345678901", hasScreenshot: false })).toBe(PAYMENT_MESSAGES.maxDeposit)
    expect(upi({ amount: "100", txnRef: "UTR", hasScreenshot: false })).toBe(PAYMENT_MESSAGES.badUpiReference)
    expect(upi({ amount: "100", txnRef: "UTR", hasScreenshot: true })).toBe(PAYMENT_MESSAGES.badUpiReference)
  })

  it("knows a UTR by its shape: 12 digits for UPI; 12 digits (IMPS) or 16 to 22 letters and digits (NEFT, RTGS) for a bank transfer", () => {
    expect(referenceProblem("upi", "4123 4567 8901")).toBeUndefined()
    for (const bad of ["41234567890", "4123456789012", "41234567890a", "UTR412345678901", "999988887777x"]) {
      expect(referenceProblem("upi", bad)).toBe(PAYMENT_MESSAGES.badUpiReference)
    }
    expect(referenceProblem("bank", "412345678901")).toBeUndefined()
    expect(referenceProblem("bank", "hdfcn52024061712345")).toBeUndefined()
    expect(referenceProblem("bank", "HDFCR5202406171234567")).toBeUndefined()
    for (const bad of ["12345", "HDFC-N520240617", "N1234567890123456789012"]) expect(referenceProblem("bank", bad)).toBe(PAYMENT_MESSAGES.badBankReference)
    expect(normalizeReference(" hdfc n5202 ")).toBe("HDFCN5202")
  })

  it("finds the references one slip away: a digit changed or two neighbours swapped", () => {
    const near = nearReferences("999988887777")
    expect(near).toContain("999988887778")
    expect(near).toContain("099988887777")
    expect(near).toContain("999898887777")
    expect(near).not.toContain("999988887777")
    // 12 positions x 9 other digits, and the 2 swaps of unequal neighbours (9|8 and 8|7).
    expect(near).toHaveLength(12 * 9 + 2)
    fc.assert(fc.property(fc.stringMatching(/^\d{12}$/), (ref) => {
      for (const other of nearReferences(ref)) {
        const differences = [...ref].filter((c, i) => other[i] !== c).length
        expect(differences === 1 || (differences === 2 && nearReferences(other).includes(ref))).toBe(true)
      }
    }))
  })

  it("checks a withdrawal: amount, minimum, account", () => {
    expect(validateWithdrawal({ amount: "", accountId: "a" })).toBe("Please enter amount")
    expect(validateWithdrawal({ amount: "50", accountId: "a" })).toBe(PAYMENT_MESSAGES.minWithdrawal)
    expect(validateWithdrawal({ amount: "150", accountId: undefined })).toBe(PAYMENT_MESSAGES.chooseAccount)
    expect(validateWithdrawal({ amount: "150", accountId: "a" })).toBeUndefined()
  })

  it("parses amounts with at most two decimals", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000_00 }), (paise) => {
      expect(parseAmount(String(paise / 100))).toBe(paise / 100)
    }))
    expect(parseAmount("1.001")).toBe(PAYMENT_MESSAGES.badAmount)
  })

  it("knows IFSC codes, UPI ids and account numbers by shape", () => {
    expect(["SBIN0001234", "hdfc0ABC123", " ICIC0000001 "].every(isIfsc)).toBe(true)
    expect(["SBIN1001234", "SBI0001234", "SBIN000123", "SBIN00012345", "12340001234"].some(isIfsc)).toBe(false)
    expect(["ravi@okaxis", "ravi.kumar-1@ybl", "98765@paytm"].every(isUpiId)).toBe(true)
    expect(["ravi", "@okaxis", "ravi@", "r@ok axis", "a@b"].some(isUpiId)).toBe(false)
    expect(isBankAccountNumber("123456")).toBe(true)
    expect(isBankAccountNumber("12345")).toBe(false)
    expect(isBankAccountNumber("1234567890123456789")).toBe(false)
  })

  it("requires every field of an account form ('Please fill all Fields'), then checks shapes", () => {
    expect(validateAccount({ type: "upi", accountNumber: "", accountHolderName: "A" })).toBe("Please fill all Fields")
    expect(validateAccount({ type: "upi", accountNumber: "ravi@ybl", accountHolderName: " " })).toBe("Please fill all Fields")
    expect(validateAccount({ type: "upi", accountNumber: "ravi", accountHolderName: "Ravi" })).toBe(PAYMENT_MESSAGES.badUpi)
    expect(validateAccount({ type: "upi", accountNumber: "ravi@ybl", accountHolderName: "Ravi" })).toBeUndefined()
    const bank = { type: "bank", accountNumber: "123456789", accountHolderName: "Ravi", bankName: "SBI", ifscCode: "SBIN0001234", accountType: "savings" } as const
    expect(validateAccount(bank)).toBeUndefined()
    for (const field of ["accountNumber", "accountHolderName", "bankName", "ifscCode"] as const) {
      expect(validateAccount({ ...bank, [field]: "  " })).toBe("Please fill all Fields")
    }
    expect(validateAccount({ ...bank, accountType: undefined })).toBe("Please fill all Fields")
    expect(validateAccount({ ...bank, ifscCode: "SBIN123" })).toBe(PAYMENT_MESSAGES.badIfsc)
    expect(validateAccount({ ...bank, accountNumber: "12ab" })).toBe(PAYMENT_MESSAGES.badAccountNumber)
  })

  it("masks account numbers but the last four digits", () => {
    expect(maskAccount("123456789012")).toBe("XXXXXXXX9012")
    expect(maskAccount("1234")).toBe("1234")
  })
})

describe("paying with a UPI app", () => {
  const account = { accountNumber: "khel.deposits@okaxis", accountHolderName: "Khel Gaming Pvt Ltd" }

  it("opens the UPI app with the operator's id and name, and the amount once it is a deposit", () => {
    expect(upiPayUrl(account, "1500")).toBe("upi://pay?pa=khel.deposits@okaxis&pn=Khel%20Gaming%20Pvt%20Ltd&am=1500.00&cu=INR&tn=Khel%20deposit")
    expect(upiPayUrl(account, "250.5")).toContain("&am=250.50&")
  })

  it("leaves the amount to the app while the one typed is not a deposit", () => {
    for (const typed of ["", "abc", "50", "2000000", "10.005"]) {
      expect(upiPayUrl(account, typed)).toBe("upi://pay?pa=khel.deposits@okaxis&pn=Khel%20Gaming%20Pvt%20Ltd&cu=INR&tn=Khel%20deposit")
    }
  })

  it("keeps every name whole, whatever it holds", () => {
    fc.assert(fc.property(fc.string(), (name) => {
      const url = new URL(upiPayUrl({ accountNumber: "a.b@upi", accountHolderName: name }, ""))
      return url.protocol === "upi:" && url.searchParams.get("pn") === name.trim() && url.searchParams.get("pa") === "a.b@upi"
    }))
  })
})

describe("date ranges and weeks (India time)", () => {
  it("opens the pickers on India's calendar days, so late evening UTC is already tomorrow", () => {
    // 18:40 UTC on 22 Nov is 00:10 IST on 23 Nov.
    const lateUtc = new Date("2026-11-22T18:40:00Z")
    expect(indiaDay(lateUtc)).toBe("2026-11-23")
    expect(indiaDay(new Date("2026-11-22T18:29:59Z"))).toBe("2026-11-22")
    expect(lastIndiaDays(7, lateUtc)).toEqual({ start_date: "2026-11-17", end_date: "2026-11-23" })
    // What the pickers send covers the moment they were opened.
    const range = resolveRange("2026-11-17", "2026-11-23", lateUtc)
    expect(typeof range !== "string" && range.to.getTime() >= lateUtc.getTime()).toBe(true)
  })

  const india = (date: Date) => new Date(date.getTime() + IST_OFFSET_MINUTES * 60_000)

  it("reads calendar days as Indian days, the end day included", () => {
    expect(parseInstant("2026-03-01")!.toISOString()).toBe("2026-02-28T18:30:00.000Z")
    expect(parseInstant("2026-03-01", true)!.toISOString()).toBe("2026-03-01T18:29:59.999Z")
    expect(parseInstant("2026-03-01T10:00:00Z")!.toISOString()).toBe("2026-03-01T10:00:00.000Z")
    expect(parseInstant("yesterday")).toBeUndefined()
    expect(parseInstant("2026-13-45")).toBeUndefined()
  })

  it("defaults to the last 7 days and refuses backwards or over-long ranges", () => {
    const now = new Date("2026-05-10T12:00:00Z")
    const range = resolveRange(undefined, undefined, now)
    expect(typeof range === "object" && range.to.getTime() - range.from.getTime()).toBe(7 * 86_400_000)
    expect(resolveRange("2026-05-10", "2026-05-01", now)).toMatch(/after/)
    expect(resolveRange("2024-01-01", "2026-01-01", now)).toMatch(/at most/)
    expect(resolveRange("bad", undefined, now)).toMatch(/start_date/)
  })

  it("puts any instant in a week from Sunday 00:00 to Saturday 23:59:59.999, India time", () => {
    fc.assert(fc.property(fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }), (date) => {
      const week = weekOf(date)
      expect(week.from.getTime()).toBeLessThanOrEqual(date.getTime())
      expect(week.to.getTime()).toBeGreaterThanOrEqual(date.getTime())
      expect(week.to.getTime() - week.from.getTime()).toBe(7 * 86_400_000 - 1)
      const start = india(week.from)
      expect([start.getUTCDay(), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()]).toEqual([0, 0, 0, 0])
      const end = india(week.to)
      expect([end.getUTCDay(), end.getUTCHours(), end.getUTCMinutes(), end.getUTCSeconds()]).toEqual([6, 23, 59, 59])
    }))
  })

  it("lists the weeks that overlap a range, back to back", () => {
    const weeks = weeksBetween(parseInstant("2026-01-04")!, parseInstant("2026-01-24", true)!)
    expect(weeks).toHaveLength(3)
    for (let i = 1; i < weeks.length; i++) expect(weeks[i]!.from.getTime()).toBe(weeks[i - 1]!.to.getTime() + 1)
  })
})

describe("screenshot sniffing", () => {
  it("knows PNG, JPEG and WebP by their first bytes only", () => {
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("png")
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg")
    expect(sniffImage(Uint8Array.from([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50]))).toBe("webp")
    expect(sniffImage(Uint8Array.from([0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x41, 0x56, 0x49, 0x20]))).toBeUndefined()
    expect(sniffImage(new TextEncoder().encode("GIF89a"))).toBeUndefined()
    expect(sniffImage(new TextEncoder().encode("<svg xmlns="))).toBeUndefined()
    expect(sniffImage(new Uint8Array())).toBeUndefined()
  })
})
