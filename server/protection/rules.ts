/**
 * What the player's own settings (Protection.ts) and the checks where money
 * moves (Admission.ts) both read: the player's state and the limits in force
 * (the database's `protection_rules`), what each limit's windows count, and
 * the refusals they share (a closed account, a limit passed).
 */
import { Effect, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import {
  binding,
  type Closure as ClosureRule,
  closureAt,
  closureMessage,
  type LimitCheck,
  type LimitKind,
  type LimitPeriod,
  limitRefusal,
  PERIOD_MS,
  remaining,
  windowStart
} from "../../src/domain/protection.ts"
import { type Region, regionName } from "../../src/domain/regions.ts"
import { refuse } from "../../src/schema/envelope.ts"
import {
  type Closure,
  LimitKind as LimitKindSchema,
  LimitPeriod as LimitPeriodSchema,
  RealityCheckMinutes as RealityCheckMinutesSchema
} from "../../src/schema/protection.ts"
import { decodeFirst, decodeRows, iso, Paise } from "../db/rows.ts"
import { COMPLIANCE_KEY, switchesOf } from "./Compliance.ts"

export const When = Schema.NullOr(Schema.Date)

/** The player's protection record (absent until something is set) and the operator's switches, in one read. */
export const StateRow = Schema.Struct({
  region: Schema.NullOr(Schema.String),
  ageConfirmedAt: When,
  realityCheckMinutes: Schema.NullOr(RealityCheckMinutesSchema),
  timeOutStartedAt: When,
  timeOutUntil: When,
  excludedAt: When,
  excludedUntil: When,
  returnRequestedAt: When,
  switches: Schema.Unknown
})
export type StateRow = typeof StateRow.Type

/**
 * The state and the amounts of one kind's limits in force (JSON numbers of paise), as money moves: the columns of
 * the database's `protection_rules`, as `loadRules` and a bet's `bet_inputs` (`Admission.betInputArgs`) read them.
 */
export const ProtectionRules = Schema.Struct({
  ...StateRow.fields,
  inForce: Schema.NullOr(Schema.Array(Schema.Struct({ period: LimitPeriodSchema, amount: Schema.Int })))
})
export type ProtectionRules = typeof ProtectionRules.Type

export const LimitRow = Schema.Struct({
  kind: LimitKindSchema,
  period: LimitPeriodSchema,
  amount: Schema.NullOr(Paise),
  inForceSince: When,
  pendingAmount: Schema.NullOr(Paise),
  pendingRemoval: Schema.Boolean,
  requestedAt: When,
  confirmableAt: When
})
export type LimitRow = typeof LimitRow.Type

/** What each window holds (paise) and when its oldest counted amount arrived; `open`: what open bets hold. */
const UsageRow = Schema.Struct({
  dayUsed: Paise,
  weekUsed: Paise,
  monthUsed: Paise,
  dayOldest: When,
  weekOldest: When,
  monthOldest: When,
  open: Paise
})

/** What a window counts now, and when its oldest counted amount arrived. */
export type Usage = Record<LimitPeriod, { readonly used: number; readonly oldest: Date | null }>

/** Where each limit window starting before `at` begins. */
export const windowsAt = (at: Date) => ({ day: windowStart("day", at), week: windowStart("week", at), month: windowStart("month", at) })

/** A window counts what was used in it plus what open bets could still lose (`open`). */
export const usageOf = (row: { readonly [K in keyof typeof UsageRow.Type]: (typeof UsageRow.Type)[K] | null } | undefined): Usage => {
  const open = Number(row?.open ?? 0n)
  return {
    day: { used: Number(row?.dayUsed ?? 0n) + open, oldest: row?.dayOldest ?? null },
    week: { used: Number(row?.weekUsed ?? 0n) + open, oldest: row?.weekOldest ?? null },
    month: { used: Number(row?.monthUsed ?? 0n) + open, oldest: row?.monthOldest ?? null }
  }
}

/** The loss rules and (only when a loss limit is in force: else null) what the limits count, as `bet_inputs` reads them. */
export const BetProtectionInputs = Schema.Struct({
  ...ProtectionRules.fields,
  dayUsed: Schema.NullOr(Paise),
  weekUsed: Schema.NullOr(Paise),
  monthUsed: Schema.NullOr(Paise),
  dayOldest: When,
  weekOldest: When,
  monthOldest: When,
  open: Schema.NullOr(Paise)
})
export type BetProtectionInputs = typeof BetProtectionInputs.Type


export const timesOf = (row: StateRow) => ({ timeOutUntil: row.timeOutUntil, excludedUntil: row.excludedUntil, returnRequestedAt: row.returnRequestedAt })

/** Why the account is closed to play at `at`: time-out, self-exclusion, or a region the operator no longer serves. */
export const closureOf = (row: StateRow, at: Date): Closure | undefined => {
  const rule: ClosureRule | undefined = closureAt(timesOf(row), at)
  if (rule) return { reason: rule.reason, until: iso(rule.until), message: closureMessage(rule) }
  if (row.region && switchesOf(row.switches).blockedRegions.includes(row.region as Region)) {
    return { reason: "RegionBlocked", until: null, message: `Khel is not available in ${regionName(row.region)}. You can still withdraw your balance.` }
  }
  return undefined
}

export const refuseIfClosed = (row: StateRow, at: Date) => {
  const closure = closureOf(row, at)
  return closure ? refuse(closure.reason, closure.message) : Effect.void
}

export const checkOf = (period: LimitPeriod, limit: number, counted: Usage): LimitCheck => ({
  period,
  limit,
  remaining: remaining(limit, counted[period].used),
  resetsAt: counted[period].oldest ? new Date(counted[period].oldest.getTime() + PERIOD_MS[period]) : undefined
})

/** The reads on the database, for one layer's sql client. */
export const protectionReads = (sql: SqlClient.SqlClient) => {
  /**
   * The database's `protection_rules` (migration 0080): the player's protection state and, where money
   * moves, the limits in force of `kind`. A function, so that read after the player's row lock in the same
   * statement it sees what the lock's previous holder committed.
   */
  const rulesOf = (user: string | Statement.Fragment, kind: LimitKind | null) => sql`protection_rules(${user}, ${kind}, ${COMPLIANCE_KEY})`

  /**
   * The rules of `kind` with the player's row locked (`lock`), in one round trip; what the windows count is
   * read only when some limit is in force.
   */
  const loadRules = (userId: string, kind: LimitKind | null, lock: boolean) =>
    (lock
      ? sql`WITH u AS MATERIALIZED (SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE) SELECT r.* FROM u CROSS JOIN LATERAL ${rulesOf(sql`u.id`, kind)} AS r`
      : sql`SELECT r.* FROM ${rulesOf(userId, kind)} AS r`)
      .pipe(decodeFirst(ProtectionRules), Effect.flatMap((row) => (row ? Effect.succeed(row) : Effect.die(new Error(`no user ${userId}`)))))

  /** The state alone (no kind: no limit matches, `inForce` is null). */
  const loadState = (userId: string, lock: boolean) => loadRules(userId, null, lock)

  const ensureRow = (userId: string) => sql`INSERT INTO player_protection (user_id) VALUES (${userId}) ON CONFLICT (user_id) DO NOTHING`

  const limitRows = (userId: string) =>
    sql`
      SELECT kind, period, amount, in_force_since, pending_amount, pending_removal, requested_at, confirmable_at
        FROM protection_limits WHERE user_id = ${userId}
    `.pipe(decodeRows(LimitRow))

  /**
   * What each window counts now: gross deposits (rejected ones excepted), or net loss plus what open
   * bets can lose. Nothing is left out for being later than `at` (another server's clock may run ahead).
   */
  const usage = (kind: LimitKind, userId: string, at: Date) =>
    Effect.gen(function*() {
      const { day, week, month } = windowsAt(at)
      const [row] = yield* (kind === "deposit"
        ? sql`
            SELECT coalesce(sum(p.amount) FILTER (WHERE p.at > ${day}), 0)::bigint AS day_used,
                   coalesce(sum(p.amount) FILTER (WHERE p.at > ${week}), 0)::bigint AS week_used,
                   coalesce(sum(p.amount), 0)::bigint AS month_used,
                   min(p.at) FILTER (WHERE p.at > ${day}) AS day_oldest,
                   min(p.at) FILTER (WHERE p.at > ${week}) AS week_oldest,
                   min(p.at) AS month_oldest,
                   0::bigint AS open
              FROM protection_deposits p JOIN deposit_requests d ON d.id = p.deposit_id
             WHERE p.user_id = ${userId} AND d.status <> 'rejected' AND p.at > ${month}
          `.pipe(decodeRows(UsageRow))
        : sql`SELECT * FROM loss_usage(${userId}, ${day}, ${week}, ${month})`.pipe(decodeRows(UsageRow)))
      return usageOf(row)
    })

  /** Refuses `added` when it does not fit every limit of the kind in force (`inForce`); the one leaving least room is named. */
  const enforceLimits = (
    kind: LimitKind,
    userId: string,
    inForce: ProtectionRules["inForce"],
    added: number,
    at: Date,
    what: "deposit" | "bet" | "stake",
    countedAlready?: Usage
  ) =>
    Effect.gen(function*() {
      if (added <= 0 || !inForce || inForce.length === 0) return
      const counted = countedAlready ?? (yield* usage(kind, userId, at))
      const passed = inForce.map((row) => checkOf(row.period, row.amount, counted)).filter((check) => added > check.remaining)
      const lowest = binding(passed)
      if (lowest) return yield* refuse("LimitReached", limitRefusal(kind, lowest, what))
    })

  return { loadRules, loadState, ensureRow, limitRows, usage, enforceLimits }
}

export type ProtectionReads = ReturnType<typeof protectionReads>
