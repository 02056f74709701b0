/**
 * Event dates as SPEC section 9 shows them: "Today, 19:30", "Tomorrow, 09:00",
 * "24 Nov, 14:00" (dd MMM, HH:mm) in the player's local time. Plain code: no
 * date library, and no Intl formatter, whose construction (loading its locale
 * data) was the largest single cost of the first chunk's evaluation.
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const
const two = (n: number) => String(n).padStart(2, "0")

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`

export const eventDateLabel = (date: Date | string | number, now: Date = new Date()) => {
  const d = new Date(date)
  const tomorrow = new Date(now)
  tomorrow.setDate(now.getDate() + 1)
  const day = dayKey(d) === dayKey(now) ? "Today" : dayKey(d) === dayKey(tomorrow) ? "Tomorrow" : `${two(d.getDate())} ${MONTHS[d.getMonth()]}`
  return `${day}, ${two(d.getHours())}:${two(d.getMinutes())}`
}

/**
 * Soonest first, for ISO 8601 dates as the API sends them: they sort as plain strings. `localeCompare` would build an
 * ICU collator on its first call, a cost the home page's first render does not need.
 */
export const byDate = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
