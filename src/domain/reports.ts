/**
 * The Today screen's figures (the desk, docs/backoffice.md): money in and
 * out, play and players by India day, for today and the last 7 and 30 days.
 * Amounts are integer paise.
 */
import { addDays } from "date-fns"
import { indiaDay } from "./ranges.ts"

/** What one day (or period) counts. */
export interface Figures {
  /** Deposits approved and withdrawals paid. */
  readonly deposits: number
  readonly withdrawals: number
  /** Deposits less withdrawals. */
  readonly netCash: number
  /** Stakes placed: sports bets (what is matched of those placed that day) and casino rounds. */
  readonly turnover: { readonly sports: number; readonly casino: number }
  /** What the house kept: sports bets settled that day (what players lost less what they won), casino rounds (stakes less wins and refunds). */
  readonly ggr: { readonly sports: number; readonly casino: number }
  readonly bets: number
  /** Players who bet or played the casino. */
  readonly activePlayers: number
  readonly signUps: number
}

/** The metrics summed by day; active players are counted apart (a player active on two days is one player of the week). */
export type DayMetric = "deposits" | "withdrawals" | "sportsTurnover" | "casinoTurnover" | "sportsGgr" | "casinoGgr" | "bets" | "signUps" | "activePlayers"

/** The India days of the last `count` days, oldest first, ending today. */
export const lastDays = (count: number, now: Date) => Array.from({ length: count }, (_, i) => indiaDay(addDays(now, i - (count - 1))))

/** A day's (or period's) figures from its metrics (missing ones are 0). */
export const figuresOf = (metrics: Partial<Readonly<Record<DayMetric, number>>>): Figures => {
  const of = (metric: DayMetric) => metrics[metric] ?? 0
  return {
    deposits: of("deposits"),
    withdrawals: of("withdrawals"),
    netCash: of("deposits") - of("withdrawals"),
    turnover: { sports: of("sportsTurnover"), casino: of("casinoTurnover") },
    ggr: { sports: of("sportsGgr"), casino: of("casinoGgr") },
    bets: of("bets"),
    activePlayers: of("activePlayers"),
    signUps: of("signUps")
  }
}

/** Sums of a metric over the last `count` of `days` (per-day rows; active players come from their own count). */
export const sumOver = (rows: ReadonlyArray<{ readonly day: string; readonly metric: DayMetric; readonly value: number }>, days: ReadonlyArray<string>) => {
  const within = new Set(days)
  const sums: Partial<Record<DayMetric, number>> = {}
  for (const row of rows) if (within.has(row.day) && row.metric !== "activePlayers") sums[row.metric] = (sums[row.metric] ?? 0) + row.value
  return sums
}

/** Each day's figures, oldest first. */
export const dailyFigures = (rows: ReadonlyArray<{ readonly day: string; readonly metric: DayMetric; readonly value: number }>, days: ReadonlyArray<string>) =>
  days.map((day) => {
    const metrics: Partial<Record<DayMetric, number>> = {}
    for (const row of rows) if (row.day === day) metrics[row.metric] = (metrics[row.metric] ?? 0) + row.value
    return { day, ...figuresOf(metrics) }
  })
