import type { SettledMarket } from "../schema/results.ts"

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const
const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`

/** A settlement's day in the player's local time: "Today", "Yesterday" or "26 Nov". */
export const resultDayLabel = (date: string, now: Date = new Date()) => {
  const d = new Date(date)
  const yesterday = new Date(now)
  yesterday.setDate(now.getDate() - 1)
  if (dayKey(d) === dayKey(now)) return "Today"
  if (dayKey(d) === dayKey(yesterday)) return "Yesterday"
  return `${String(d.getDate()).padStart(2, "0")} ${MONTHS[d.getMonth()]}`
}

export interface ResultDay {
  readonly day: string
  readonly sports: ReadonlyArray<{ readonly sport: string; readonly rows: ReadonlyArray<SettledMarket> }>
}

/**
 * /results' sections: by day (newest first, as the rows come), then by sport in the order each first appears, the
 * rows keeping their order.
 */
export const groupResults = (rows: ReadonlyArray<SettledMarket>, now: Date = new Date()): ReadonlyArray<ResultDay> => {
  const days = new Map<string, Map<string, Array<SettledMarket>>>()
  for (const row of rows) {
    const day = resultDayLabel(row.settledAt, now)
    const sports = days.get(day) ?? new Map<string, Array<SettledMarket>>()
    days.set(day, sports)
    sports.set(row.sport, [...(sports.get(row.sport) ?? []), row])
  }
  return [...days].map(([day, sports]) => ({ day, sports: [...sports].map(([sport, list]) => ({ sport, rows: list })) }))
}

/** What a settled market came to, in words: its winner or line result, or "Void". */
export const resultText = (row: SettledMarket) => (row.outcome === "void" || row.result === null ? "Void" : row.result)
