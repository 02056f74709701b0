/**
 * The rules of player protection, shared by the server (which enforces them)
 * and the player's screens (which explain them): limit windows, cooling-off,
 * time-outs, self-exclusion, reality checks, and the messages that say what
 * applies and until when. Amounts are integer paise; times are Dates.
 */
import { formatRupees, toPaise, toRupees } from "./money.ts"
import { IST_OFFSET_MINUTES } from "./ranges.ts"

export const LIMIT_KINDS = ["deposit", "loss"] as const
export type LimitKind = typeof LIMIT_KINDS[number]

export const LIMIT_PERIODS = ["day", "week", "month"] as const
export type LimitPeriod = typeof LIMIT_PERIODS[number]

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The rolling windows limits count over, back from now. A "month" is 30 days
 * (720 hours): every monthly window is as long as any other, it never depends
 * on which calendar month it starts in, and an amount leaves it exactly 30
 * days after it was counted.
 */
export const PERIOD_MS: Record<LimitPeriod, number> = { day: DAY, week: 7 * DAY, month: 30 * DAY }

export const PERIOD_LABEL: Record<LimitPeriod, string> = { day: "24-hour", week: "7-day", month: "30-day" }

/** An increase or a removal of a limit can be confirmed this long after it was asked for. */
export const COOLING_OFF_MS = DAY

/** After a self-exclusion ends, the account reopens this long after the player asks to return. */
export const RETURN_WAIT_MS = DAY

/** Activity with gaps shorter than this is one session (for reality checks and time spent). */
export const SESSION_IDLE_MS = 30 * MINUTE

export const TIME_OUT_DAYS = [1, 7, 42] as const
export type TimeOutDays = typeof TIME_OUT_DAYS[number]

export const EXCLUSION_MONTHS = [6, 12, 24, 60] as const
export type ExclusionMonths = typeof EXCLUSION_MONTHS[number]

export const REALITY_CHECK_MINUTES = [0, 15, 30, 60] as const
export type RealityCheckMinutes = typeof REALITY_CHECK_MINUTES[number]

/** The largest limit a player can type: ₹1,00,00,000 (one crore). */
export const MAX_LIMIT_PAISE = 1_00_00_000_00

// Windows -------------------------------------------------------------------------------------

/** The window of a period is (now − period, now]: an amount counted exactly one period ago has left it. */
export const windowStart = (period: LimitPeriod, now: Date) => new Date(now.getTime() - PERIOD_MS[period])

export const inWindow = (at: Date, period: LimitPeriod, now: Date) => at > windowStart(period, now) && at <= now

/** An amount a limit counts: a deposit, or a result of play (positive: lost, negative: won). */
export interface Counted {
  readonly at: Date
  readonly amount: number
}

export const usedInWindow = (entries: ReadonlyArray<Counted>, period: LimitPeriod, now: Date) =>
  entries.reduce((sum, entry) => (inWindow(entry.at, period, now) ? sum + entry.amount : sum), 0)

/** When the oldest amount still counted leaves the window, so more room opens; undefined when nothing is counted. */
export const resetAt = (entries: ReadonlyArray<Counted>, period: LimitPeriod, now: Date): Date | undefined => {
  const counted = entries.filter((entry) => entry.amount > 0 && inWindow(entry.at, period, now))
  if (counted.length === 0) return undefined
  const oldest = Math.min(...counted.map((entry) => entry.at.getTime()))
  return new Date(oldest + PERIOD_MS[period])
}

/** What a limit still allows: never below nothing. */
export const remaining = (limit: number, used: number) => Math.max(0, limit - used)

/** Of several limits of one kind, the one leaving the least room applies ("the lowest wins"). */
export const binding = <T extends { readonly remaining: number }>(checks: ReadonlyArray<T>): T | undefined =>
  checks.reduce<T | undefined>((lowest, check) => (lowest === undefined || check.remaining < lowest.remaining ? check : lowest), undefined)

// Cooling-off ---------------------------------------------------------------------------------

export interface PendingChange {
  /** The limit asked for; null asks to remove the limit. */
  readonly amount: number | null
  readonly confirmableAt: Date
}

export interface LimitSetting {
  /** The limit in force; null when there is none. */
  readonly amount: number | null
  readonly pending: PendingChange | null
}

/**
 * What asking for `requested` does to a limit of `current`: a first limit or
 * a decrease is in force at once; an increase or a removal cools off (the old
 * limit holds until the player confirms it, 24 hours later at the earliest);
 * asking for what is in force changes nothing (and drops a pending change).
 */
export const classifyChange = (current: number | null, requested: number | null): "inForce" | "coolingOff" | "unchanged" => {
  if (requested === current) return "unchanged"
  if (current === null) return "inForce"
  return requested !== null && requested < current ? "inForce" : "coolingOff"
}

/** A limit as its page shows it: none, in force, waiting out its cooling-off, or ready to confirm. */
export const coolingState = (setting: LimitSetting, now: Date): "none" | "inForce" | "waiting" | "confirmable" => {
  if (setting.pending) return now >= setting.pending.confirmableAt ? "confirmable" : "waiting"
  return setting.amount === null ? "none" : "inForce"
}

export const confirmableFrom = (requestedAt: Date) => new Date(requestedAt.getTime() + COOLING_OFF_MS)

// Time-out and self-exclusion -----------------------------------------------------------------

export const timeOutEnd = (from: Date, days: TimeOutDays) => new Date(from.getTime() + days * DAY)

/**
 * `months` calendar months after `from`, on India's calendar and clock: the
 * same day and time of day, or the month's last day when it is shorter (31
 * August + 6 months is 28 or 29 February).
 */
export const addMonthsInIndia = (from: Date, months: number) => {
  const shift = IST_OFFSET_MINUTES * MINUTE
  const wall = new Date(from.getTime() + shift)
  const year = wall.getUTCFullYear()
  const month = wall.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const day = Math.min(wall.getUTCDate(), lastDay)
  return new Date(Date.UTC(year, month, day, wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds(), wall.getUTCMilliseconds()) - shift)
}

export interface ProtectionTimes {
  readonly timeOutUntil: Date | null
  readonly excludedUntil: Date | null
  readonly returnRequestedAt: Date | null
}

/** Why the account is closed to play now, and until when (null: until the player asks to return). */
export type Closure =
  | { readonly reason: "TimedOut"; readonly until: Date }
  | { readonly reason: "SelfExcluded"; readonly until: Date | null; readonly stage: "excluded" | "ended" | "returning" }

/**
 * A self-exclusion closes the account for its whole period and afterwards
 * until the player asks to return and 24 hours have passed; a time-out closes
 * it until it ends. Neither can be shortened.
 */
export const closureAt = (times: ProtectionTimes, now: Date): Closure | undefined => {
  if (times.excludedUntil) {
    if (now < times.excludedUntil) return { reason: "SelfExcluded", until: times.excludedUntil, stage: "excluded" }
    if (!times.returnRequestedAt) return { reason: "SelfExcluded", until: null, stage: "ended" }
    const reopens = new Date(times.returnRequestedAt.getTime() + RETURN_WAIT_MS)
    if (now < reopens) return { reason: "SelfExcluded", until: reopens, stage: "returning" }
  }
  if (times.timeOutUntil && now < times.timeOutUntil) return { reason: "TimedOut", until: times.timeOutUntil }
  return undefined
}

// Reality checks ------------------------------------------------------------------------------

/** The next reminder: `minutes` after the session started or the last reminder was answered; none when off. */
export const nextRealityCheck = (minutes: RealityCheckMinutes, since: Date): Date | undefined =>
  minutes === 0 ? undefined : new Date(since.getTime() + minutes * MINUTE)

// Free text -----------------------------------------------------------------------------------

export const LIMIT_MESSAGES = {
  required: "Enter an amount",
  invalid: "Enter an amount in rupees, like 5000 or 5,000.50",
  positive: "The amount must be more than ₹0",
  tooLarge: `A limit can be at most ${formatRupees(toRupees(MAX_LIMIT_PAISE))}`
} as const

/**
 * A limit typed into the free-text box: digits with optional grouping commas
 * (Indian "1,00,000" or "100,000"), at most two decimals, an optional ₹ or Rs.
 */
export const parseLimitAmount = (text: string): { readonly paise: number } | { readonly error: string } => {
  const typed = text.trim().replace(/^(₹|rs\.?|inr)\s*/i, "")
  if (typed === "") return { error: LIMIT_MESSAGES.required }
  if (!/^(\d+|\d{1,3}(,\d{2,3})+)(\.\d{1,2})?$/.test(typed)) return { error: LIMIT_MESSAGES.invalid }
  const paise = toPaise(Number(typed.replace(/,/g, "")))
  if (paise === undefined) return { error: LIMIT_MESSAGES.invalid }
  if (paise <= 0) return { error: LIMIT_MESSAGES.positive }
  if (paise > MAX_LIMIT_PAISE) return { error: LIMIT_MESSAGES.tooLarge }
  return { paise }
}

/** The same rules for an amount that arrived as a number of rupees (the API). */
export const limitAmountProblem = (rupees: number): string | undefined => {
  const paise = toPaise(rupees)
  if (paise === undefined) return LIMIT_MESSAGES.invalid
  if (paise <= 0) return LIMIT_MESSAGES.positive
  if (paise > MAX_LIMIT_PAISE) return LIMIT_MESSAGES.tooLarge
  return undefined
}

// Messages ------------------------------------------------------------------------------------

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const two = (n: number) => String(n).padStart(2, "0")

/** "13 Mar 2026, 14:30 IST": a moment on India's clock, wherever it is computed. */
export const indiaDateTime = (date: Date) => {
  const wall = new Date(date.getTime() + IST_OFFSET_MINUTES * MINUTE)
  return `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}, ${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())} IST`
}

export const money = (paise: number) => formatRupees(toRupees(paise))

/** "24-hour deposit limit", "30-day loss limit". */
export const limitName = (kind: LimitKind, period: LimitPeriod) => `${PERIOD_LABEL[period]} ${kind} limit`

export interface LimitCheck {
  readonly period: LimitPeriod
  readonly limit: number
  readonly remaining: number
  readonly resetsAt: Date | undefined
}

/** Why a deposit, a bet or a casino stake is refused: which limit, what is left, when more opens. */
export const limitRefusal = (kind: LimitKind, check: LimitCheck, what: "deposit" | "bet" | "stake") => {
  const name = `${PERIOD_LABEL[check.period]} ${kind} limit of ${money(check.limit)}`
  const head = check.remaining === 0
    ? `You have reached your ${name}`
    : kind === "deposit"
    ? `This deposit would pass your ${name}: you can deposit up to ${money(check.remaining)} now`
    : `This ${what} could take your losses past your ${name}: you can risk up to ${money(check.remaining)} more now`
  // A deposit larger than the whole limit has nothing to wait for; open bets free room as they settle.
  if (check.resetsAt) return `${head}; more becomes available from ${indiaDateTime(check.resetsAt)}.`
  return kind === "loss" ? `${head}; more becomes available as your open bets are settled.` : `${head}.`
}

/** What a change of limit did, as the player is told it. */
export const limitChangeMessage = (
  kind: LimitKind,
  period: LimitPeriod,
  change: { readonly outcome: "inForce" | "coolingOff" | "unchanged" | "confirmed"; readonly amount: number | null; readonly inForce: number | null; readonly confirmableAt?: Date }
) => {
  const name = limitName(kind, period)
  switch (change.outcome) {
    case "inForce":
    case "confirmed":
      return change.amount === null ? `Your ${name} is removed.` : `Your ${name} of ${money(change.amount)} is in force now.`
    case "unchanged":
      return change.inForce === null ? `You have no ${name}.` : `Your ${name} stays ${money(change.inForce)}.`
    case "coolingOff":
      return `Your ${name} stays ${money(change.inForce ?? 0)} for now. You can confirm ${
        change.amount === null ? "removing it" : `${money(change.amount)}`
      } from ${indiaDateTime(change.confirmableAt!)}.`
  }
}

/** Why the account is closed to play, for refusals and for the protection page. */
export const closureMessage = (closure: Closure) => {
  if (closure.reason === "TimedOut") {
    return `You are taking a break until ${indiaDateTime(closure.until)}. Bets, casino games and deposits are closed until then; you can still withdraw your balance.`
  }
  switch (closure.stage) {
    case "excluded":
      return `Your account is self-excluded until ${indiaDateTime(closure.until!)}. Bets, casino games, deposits and bonuses are closed; you can still withdraw your balance.`
    case "ended":
      return "Your self-exclusion has ended, but your account stays closed until you ask to return. It reopens 24 hours after you ask."
    case "returning":
      return `Your account reopens on ${indiaDateTime(closure.until!)}, 24 hours after you asked to return.`
  }
}
