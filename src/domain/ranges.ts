import { addDays, addMilliseconds, addWeeks, isAfter, subDays } from "date-fns"

/**
 * Date ranges of statements and referral weeks, in India time whatever the
 * time zone of the machine computing them: calendar days sent as YYYY-MM-DD
 * are Indian days, and weeks run Sunday 00:00 to Saturday 23:59:59.999 IST.
 */

/** Calendar days (YYYY-MM-DD, India time) as the statement and request lists take them; the end day is included. */
export type DayRange = {
  readonly start_date: string
  readonly end_date: string
}

export interface Range {
  readonly from: Date
  readonly to: Date
}

/** India time, for calendar days sent without a time (YYYY-MM-DD). */
export const IST_OFFSET_MINUTES = 330

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** An ISO instant, or a calendar day (its start, or with `end` its last millisecond) in India time. */
export const parseInstant = (text: string, end = false): Date | undefined => {
  const day = DAY.exec(text.trim())
  if (day) {
    const midnight = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])))
    // 2026-13-45 would roll over into another day: not a calendar day.
    if (midnight.getUTCMonth() !== Number(day[2]) - 1 || midnight.getUTCDate() !== Number(day[3])) return undefined
    const utc = midnight.getTime() - IST_OFFSET_MINUTES * 60_000
    return new Date(end ? utc + 86_400_000 - 1 : utc)
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text.trim())) return undefined
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? undefined : date
}

export const DEFAULT_RANGE_DAYS = 7
export const MAX_RANGE_DAYS = 366

/** start_date / end_date as sent, or the last 7 days; a range that runs backwards or is too long is refused. */
export const resolveRange = (start: string | undefined, end: string | undefined, now = new Date()): Range | string => {
  const to = end ? parseInstant(end, true) : now
  if (!to) return "end_date must be a date (YYYY-MM-DD) or an ISO time"
  const from = start ? parseInstant(start) : subDays(to, DEFAULT_RANGE_DAYS)
  if (!from) return "start_date must be a date (YYYY-MM-DD) or an ISO time"
  if (isAfter(from, to)) return "start_date must not be after end_date"
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86_400_000) return `A range can span at most ${MAX_RANGE_DAYS} days`
  return { from, to }
}

/** The week (Sunday 00:00 to Saturday 23:59:59.999, India time) that holds `date`. */
export const weekOf = (date: Date): Range => {
  // Read the wall clock in India: shift by the offset and use the UTC fields.
  const india = addMilliseconds(date, IST_OFFSET_MINUTES * 60_000)
  const sunday = Date.UTC(india.getUTCFullYear(), india.getUTCMonth(), india.getUTCDate() - india.getUTCDay())
  const from = new Date(sunday - IST_OFFSET_MINUTES * 60_000)
  return { from, to: addMilliseconds(addWeeks(from, 1), -1) }
}

/** Every week that overlaps [from, to], oldest first. */
export const weeksBetween = (from: Date, to: Date): Array<Range> => {
  const weeks: Array<Range> = []
  for (let start = weekOf(from).from; !isAfter(start, to); start = addWeeks(start, 1)) weeks.push(weekOf(start))
  return weeks
}

/** YYYY-MM-DD of the Indian calendar day that holds `date`, whatever the browser's time zone (the server reads days as India days). */
export const indiaDay = (date: Date) => addMilliseconds(date, IST_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10)

/** The last `days` Indian calendar days including today, as the date pickers open. */
export const lastIndiaDays = (days: number, now = new Date()): DayRange => ({ start_date: indiaDay(addDays(now, -(days - 1))), end_date: indiaDay(now) })

/** The last `count` weeks up to and including this one (Sunday to Saturday, India time), as the weekly referral list shows them. */
export const lastWeeks = (count: number, now = new Date()): Range => {
  const current = weekOf(now)
  return { from: addWeeks(current.from, -(count - 1)), to: current.to }
}

/** "27 Nov 14:02": a moment in India time, for staff messages and lists. */
export const indiaMoment = (date: Date) => {
  const india = addMilliseconds(date, IST_OFFSET_MINUTES * 60_000)
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][india.getUTCMonth()]!
  return `${india.getUTCDate()} ${month} ${india.toISOString().slice(11, 16)}`
}
