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
