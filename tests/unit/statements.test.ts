import { describe, expect, it } from "vitest"
import { settlementDescription, statementWords } from "../../src/domain/statements.ts"

describe("statement rows in plain words", () => {
  const match = { selection: "India", market: "Match Odds" }

  it("names a bet's postings by the bet: its selection and market", () => {
    expect(statementWords({ kind: "bet.exposure", description: "Exposure held for bet on India" }, match)).toEqual({ title: "Bet placed", detail: "India, Match Odds" })
    expect(statementWords({ kind: "bet.release", description: "Exposure released by bet on India" }, match)).toEqual({ title: "Exposure released", detail: "India, Match Odds" })
    // A bet the statement could not find still reads plainly.
    expect(statementWords({ kind: "bet.exposure", description: "Exposure held for bet on India" })).toEqual({ title: "Bet placed", detail: "India" })
  })

  it("says how each settled market went for the player", () => {
    for (const [verdict, title] of [["won", "Bet won"], ["lost", "Bet lost"], ["settled", "Bet settled"]] as const) {
      expect(statementWords({ kind: "bet.settle", description: settlementDescription("India v Australia", "Match Odds", verdict) })).toEqual({ title, detail: "India v Australia · Match Odds" })
    }
    expect(statementWords({ kind: "bet.void", description: settlementDescription("India v Australia", "Match Odds", "void") }).title).toBe("Bet void: stake returned")
  })

  it("names casino rounds and payments, and any other kind by its name, never as a code", () => {
    expect(statementWords({ kind: "casino_credit", description: "Casino win: Khel Dragon Tiger, round 7" })).toEqual({ title: "Casino win", detail: "Khel Dragon Tiger, round 7" })
    expect(statementWords({ kind: "withdrawal_hold", description: "To UPI ravi@ybl" }).title).toBe("Withdrawal requested")
    expect(statementWords({ kind: "promo.credit_note", description: "Diwali gift" })).toEqual({ title: "Promo credit note", detail: "Diwali gift" })
  })
})
