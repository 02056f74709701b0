import type { StatementRow } from "../schema/statements.ts"
import { PAISE_PER_RUPEE, toRupees } from "./money.ts"

/**
 * Running figures of statements and profit and loss, added in paise so a
 * long list never drifts by a paisa.
 */

/** The total after each amount, from `start`: a running balance from the opening balance, a running P/L from 0. */
export const runningTotals = (start: number, amounts: ReadonlyArray<number>): Array<number> => {
  let paise = Math.round(start * PAISE_PER_RUPEE)
  return amounts.map((amount) => toRupees((paise += Math.round(amount * PAISE_PER_RUPEE))))
}

/** Rows as statements list them (newest first), each with the period's P/L up to and including it. */
export const withRunningProfit = (rows: ReadonlyArray<StatementRow>): Array<{ readonly row: StatementRow; readonly running: number }> => {
  const oldestFirst = [...rows].reverse()
  const running = runningTotals(0, oldestFirst.map((row) => row.amount))
  return oldestFirst.map((row, i) => ({ row, running: running[i]! })).reverse()
}

/** A player's result on a settled market, as settlement writes it in the ledger and statements read it back. */
export type Verdict = "won" | "lost" | "settled" | "void"

/** The ledger's description of a settlement: "India v Australia · Match Odds · won". */
export const settlementDescription = (event: string, market: string, verdict: Verdict) => `${event} · ${market} · ${verdict}`

const VERDICT_SUFFIX = / · (won|lost|settled|void)$/

/** Money in and out, bonuses and referrals: what each is called on a statement. */
const PAYMENT_TITLES: Readonly<Record<string, string>> = {
  deposit: "Deposit",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_paid: "Withdrawal paid",
  withdrawal_rejected: "Withdrawal returned",
  adjustment: "Credit",
  adjustment_debit: "Debit",
  bonus_activate: "Bonus",
  bonus_claim: "Bonus claimed",
  bonus_forfeit: "Bonus forfeited",
  referral_reward: "Referral reward",
  referral_claim: "Referral bonus claimed"
}

const SETTLED_TITLES: Readonly<Record<Verdict, string>> = { won: "Bet won", lost: "Bet lost", settled: "Bet settled", void: "Bet void: stake returned" }

/** What a bet's posting is about, when the statement found the bet: its selection and market. */
export interface BetOf {
  readonly selection: string
  readonly market: string
}

/**
 * A statement row in plain words: what happened ("Bet placed", "Bet lost", "Exposure released", "Casino win") and
 * what it was about ("India, Match Odds"; "India v Australia · Match Odds"), from the ledger's kind and
 * description (and the bet, for a bet's own postings). A kind it does not know keeps its description, titled by
 * its name.
 */
export const statementWords = (row: { readonly kind: string; readonly description: string }, bet?: BetOf): { title: string; detail: string } => {
  const betDetail = (legacyPrefix: RegExp) => (bet ? `${bet.selection}, ${bet.market}` : row.description.replace(legacyPrefix, ""))
  switch (row.kind) {
    case "bet.exposure":
      return { title: "Bet placed", detail: betDetail(/^Exposure held for bet on /) }
    case "bet.release":
      return { title: "Exposure released", detail: betDetail(/^Exposure released by bet on /) }
    case "bet.cashout":
      return { title: "Cash out", detail: row.description.replace(/^Exposure (held|released): cash out on /, "") }
    case "bet.settle":
    case "bet.void": {
      const verdict = (VERDICT_SUFFIX.exec(row.description)?.[1] as Verdict | undefined) ?? (row.kind === "bet.void" ? "void" : "settled")
      return { title: SETTLED_TITLES[verdict], detail: row.description.replace(VERDICT_SUFFIX, "") }
    }
    case "casino_debit":
      return { title: "Casino bet", detail: row.description.replace(/^Casino bet: /, "") }
    case "casino_credit":
      return { title: "Casino win", detail: row.description.replace(/^Casino win: /, "") }
    case "casino_rollback":
      return { title: "Casino bet cancelled", detail: row.description.replace(/^Casino bet cancelled: /, "") }
  }
  return { title: PAYMENT_TITLES[row.kind] ?? row.kind.replace(/[_.]/g, " ").replace(/^\w/, (c) => c.toUpperCase()), detail: row.description }
}
