/**
 * Event dates as SPEC section 9 shows them: "Today, 19:30", "Tomorrow, 09:00",
 * "24 Nov, 14:00" in the player's local time. Intl keeps this out of the
 * date library, which the home page would otherwise load.
 */
const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false })
const dayMonth = new Intl.DateTimeFormat("en-GB", { day: "2-digit", month: "short" })

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`

export const eventDateLabel = (date: Date | string | number, now: Date = new Date()) => {
  const d = new Date(date)
  const tomorrow = new Date(now)
  tomorrow.setDate(now.getDate() + 1)
  const day = dayKey(d) === dayKey(now) ? "Today" : dayKey(d) === dayKey(tomorrow) ? "Tomorrow" : dayMonth.format(d)
  return `${day}, ${time.format(d)}`
}
