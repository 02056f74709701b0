import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import {
  addMonthsInIndia,
  binding,
  classifyChange,
  type Closure as ClosureRule,
  closureAt,
  closureMessage,
  confirmableFrom,
  type ExclusionMonths,
  indiaDateTime,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  limitAmountProblem,
  type LimitCheck,
  limitChangeMessage,
  type LimitKind,
  limitName,
  type LimitPeriod,
  limitRefusal,
  PERIOD_MS,
  type RealityCheckMinutes,
  remaining,
  timeOutEnd,
  type TimeOutDays,
  windowStart
} from "../../src/domain/protection.ts"
import { type Region, regionName } from "../../src/domain/regions.ts"
import { type ApiError, badRequest, conflict, forbidden, notFound, unprocessable } from "../../src/schema/envelope.ts"
import {
  type Closure,
  type Limit,
  LimitKind as LimitKindSchema,
  LimitPeriod as LimitPeriodSchema,
  type PlayerProtection,
  type Protection as ProtectionView,
  RealityCheckMinutes as RealityCheckMinutesSchema,
  type SetLimitPayload
} from "../../src/schema/protection.ts"
import { decodeFirst, decodeRows, Paise } from "../db/rows.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Activity } from "./Activity.ts"
import { type Actor, audit } from "./audit.ts"
import { COMPLIANCE_KEY, switchesOf } from "./Compliance.ts"

type Failure = ApiError | SqlError.SqlError

/** A change of protection and what the player is told about it. */
export interface Changed {
  readonly state: ProtectionView
  readonly message: string
}

export const DEPOSITS_CLOSED = "Real-money deposits are closed at the moment: Khel runs on demo credit."

const When = Schema.NullOr(Schema.Date)

/** The player's protection record (absent until something is set) and the operator's switches, in one read. */
const StateRow = Schema.Struct({
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
type StateRow = typeof StateRow.Type

/**
 * The state and the amounts of one kind's limits in force (JSON numbers of paise), as money moves: the columns of
 * the database's `protection_rules`, as `loadRules` and a bet's `bet_inputs` (`Protection.betInputArgs`) read them.
 */
export const ProtectionRules = Schema.Struct({
  ...StateRow.fields,
  inForce: Schema.NullOr(Schema.Array(Schema.Struct({ period: LimitPeriodSchema, amount: Schema.Int })))
})
export type ProtectionRules = typeof ProtectionRules.Type

const LimitRow = Schema.Struct({
  kind: LimitKindSchema,
  period: LimitPeriodSchema,
  amount: Schema.NullOr(Paise),
  inForceSince: When,
  pendingAmount: Schema.NullOr(Paise),
  pendingRemoval: Schema.Boolean,
  requestedAt: When,
  confirmableAt: When
})
type LimitRow = typeof LimitRow.Type

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
type Usage = Record<LimitPeriod, { readonly used: number; readonly oldest: Date | null }>

/** Where each limit window starting before `at` begins. */
const windowsAt = (at: Date) => ({ day: windowStart("day", at), week: windowStart("week", at), month: windowStart("month", at) })

/** A window counts what was used in it plus what open bets could still lose (`open`). */
const usageOf = (row: { readonly [K in keyof typeof UsageRow.Type]: (typeof UsageRow.Type)[K] | null } | undefined): Usage => {
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

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null)
const paise = (value: bigint | null) => (value === null ? null : Number(value))

const timesOf = (row: StateRow) => ({ timeOutUntil: row.timeOutUntil, excludedUntil: row.excludedUntil, returnRequestedAt: row.returnRequestedAt })

/**
 * Player protection: financial limits with their cooling-off, time-outs and
 * self-exclusion, and their enforcement where money moves. The enforcement
 * calls run inside the caller's transaction, take the player's row lock
 * (FOR NO KEY UPDATE: it serialises the player's money moves without
 * blocking the foreign keys that point at the player) and count what is
 * already committed, so no two parallel requests pass a limit together.
 * Every time the rules compare comes from the server's clock.
 */
export class Protection extends Context.Service<Protection, {
  readonly state: (userId: string) => Effect.Effect<ProtectionView, SqlError.SqlError>
  readonly setLimit: (userId: string, payload: SetLimitPayload, actor: Actor) => Effect.Effect<Changed, Failure>
  readonly confirmLimit: (userId: string, kind: LimitKind, period: LimitPeriod, actor: Actor) => Effect.Effect<Changed, Failure>
  readonly setRealityCheck: (userId: string, minutes: RealityCheckMinutes, actor: Actor) => Effect.Effect<Changed, Failure>
  /** The player answered the reality check: the next comes a full interval later. */
  readonly continueSession: (userId: string) => Effect.Effect<ProtectionView, ApiError | SqlError.SqlError>
  readonly timeOut: (userId: string, days: TimeOutDays, actor: Actor) => Effect.Effect<Changed, Failure>
  /** Closes the account for the period and ends every session of the player (they sign in again to withdraw). */
  readonly selfExclude: (userId: string, months: ExclusionMonths, actor: Actor) => Effect.Effect<Changed, Failure>
  /** After an exclusion has ended: the account reopens 24 hours from now. */
  readonly requestReturn: (userId: string, actor: Actor) => Effect.Effect<Changed, Failure>

  /** Sign-up, inside its transaction: the declared region, when the age was confirmed, the operator's default limits. */
  readonly signedUp: (userId: string, region: Region, actor: Actor) => Effect.Effect<void, SqlError.SqlError>

  /** A dry run of `admitDeposit` before anything is stored: refuses what would be refused now. */
  readonly checkDeposit: (userId: string, amountPaise: number) => Effect.Effect<void, Failure>
  /** Inside the deposit request's transaction: refuses a closed account, closed deposits or a limit passed; counts the deposit. */
  readonly admitDeposit: (userId: string, depositId: string, amountPaise: number) => Effect.Effect<void, Failure>
  /**
   * For a bet's `bet_inputs` call (migration 0081): the arguments after the player and the market that give its
   * loss rules and, when a loss limit is in force, what the limit counts now. Built once per decision, so the
   * bet's read and its write's check count the same windows.
   */
  readonly betInputArgs: () => Statement.Fragment
  /** By the rules and counts `bet_inputs` read: refuses a closed account, or a bet whose added worst case could pass a loss limit. */
  readonly admitBet: (inputs: BetProtectionInputs, userId: string, addedRiskPaise: number) => Effect.Effect<void, Failure>
  /** Inside the casino debit's transaction: like a bet, and the stake counts as lost until the round pays back. */
  readonly admitCasinoStake: (userId: string, amountPaise: number, reference: string) => Effect.Effect<void, Failure>
  /** Refuses a closed account: casino launches, bonuses. Moves nothing, takes no lock. */
  readonly admitPlay: (userId: string) => Effect.Effect<void, Failure>
  /** `admitPlay` by rules a caller's read has already read (the bet's `bet_inputs`). */
  readonly admitPlayBy: (state: ProtectionRules) => Effect.Effect<void, Failure>
  /** A result of play (positive won, negative lost), inside the transaction that pays or collects it. */
  readonly recordResult: (userId: string, source: "sports" | "casino", amountPaise: number, reference: string) => Effect.Effect<void, SqlError.SqlError>
  /** Offers and promotions are not shown to a player on a time-out or self-excluded. */
  readonly hidesMarketing: (userId: string) => Effect.Effect<boolean, SqlError.SqlError>

  /** The operator's view of a player (by username or id): protection and the audit trail. */
  readonly playerView: (user: string) => Effect.Effect<PlayerProtection, Failure>
}>()("khel/Protection") {
  static readonly layer = Layer.effect(
    Protection,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const clock = yield* Clock.Clock
      const sessions = yield* Sessions
      const realtime = yield* Realtime
      const activity = yield* Activity
      const now = () => new Date(clock.currentTimeMillisUnsafe())

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

      /** Why the account is closed to play now: time-out, self-exclusion, or a region the operator no longer serves. */
      const closureOf = (row: StateRow, at: Date): Closure | undefined => {
        const rule: ClosureRule | undefined = closureAt(timesOf(row), at)
        if (rule) return { reason: rule.reason, until: iso(rule.until), message: closureMessage(rule) }
        if (row.region && switchesOf(row.switches).blockedRegions.includes(row.region as Region)) {
          return { reason: "RegionBlocked", until: null, message: `Khel is not available in ${regionName(row.region)}. You can still withdraw your balance.` }
        }
        return undefined
      }

      const refuseIfClosed = (row: StateRow, at: Date) => {
        const closure = closureOf(row, at)
        return closure ? forbidden(closure.message, closure.reason) : Effect.void
      }

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

      const checkOf = (period: LimitPeriod, limit: number, counted: Usage): LimitCheck => ({
        period,
        limit,
        remaining: remaining(limit, counted[period].used),
        resetsAt: counted[period].oldest ? new Date(counted[period].oldest.getTime() + PERIOD_MS[period]) : undefined
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
          if (lowest) return yield* unprocessable(limitRefusal(kind, lowest, what), "LimitReached")
        })

      // Views ---------------------------------------------------------------------------------

      const limitView = (kind: LimitKind, period: LimitPeriod, row: LimitRow | undefined, counted: Usage): Limit => {
        const amount = paise(row?.amount ?? null)
        const check = amount === null ? undefined : checkOf(period, amount, counted)
        return {
          kind,
          period,
          amount: amount === null ? null : toRupees(amount),
          inForceSince: iso(row?.inForceSince),
          used: toRupees(counted[period].used),
          remaining: check ? toRupees(check.remaining) : null,
          resetsAt: iso(check?.resetsAt),
          pending: row?.requestedAt
            ? {
              amount: row.pendingRemoval ? null : toRupees(row.pendingAmount!),
              requestedAt: row.requestedAt.toISOString(),
              confirmableAt: row.confirmableAt!.toISOString()
            }
            : null
        }
      }

      const state = Effect.fn("Protection.state")(function*(userId: string) {
        const at = now()
        const row = yield* loadState(userId, false)
        const rows = yield* limitRows(userId)
        const counted = { deposit: yield* usage("deposit", userId, at), loss: yield* usage("loss", userId, at) }
        const limits = LIMIT_KINDS.flatMap((kind) =>
          LIMIT_PERIODS.map((period) => limitView(kind, period, rows.find((r) => r.kind === kind && r.period === period), counted[kind]))
        )
        const closure = closureAt(timesOf(row), at)
        const { timeOutUntil, excludedUntil, returnRequestedAt } = row
        return {
          serverTime: at.toISOString(),
          limits,
          realityCheck: yield* activity.realityCheck(userId, row.realityCheckMinutes ?? 0),
          timeOut: timeOutUntil && at < timeOutUntil ? { startedAt: row.timeOutStartedAt!.toISOString(), until: timeOutUntil.toISOString() } : null,
          selfExclusion: excludedUntil && closure?.reason === "SelfExcluded"
            ? {
              startedAt: row.excludedAt!.toISOString(),
              until: excludedUntil.toISOString(),
              returnRequestedAt: iso(returnRequestedAt),
              returnsAt: returnRequestedAt ? new Date(returnRequestedAt.getTime() + 86_400_000).toISOString() : null
            }
            : null,
          closed: closureOf(row, at) ?? null
        } satisfies ProtectionView
      })

      /** A write to the player's protection: their row locked, the change and its audit line in one transaction. */
      const change = <A>(userId: string, write: (row: StateRow, at: Date) => Effect.Effect<A, Failure>) =>
        sql.withTransaction(Effect.gen(function*() {
          const at = now()
          yield* ensureRow(userId)
          return yield* write(yield* loadState(userId, true), at)
        }))

      // Limits --------------------------------------------------------------------------------

      const setLimit = Effect.fn("Protection.setLimit")(function*(userId: string, payload: SetLimitPayload, actor: Actor) {
        if (payload.amount !== null) {
          const problem = limitAmountProblem(payload.amount)
          if (problem) return yield* badRequest(problem)
        }
        const requested = payload.amount === null ? null : toPaise(payload.amount)!
        const { kind, period } = payload
        const message = yield* change(userId, (_, at) =>
          Effect.gen(function*() {
            const [row] = (yield* limitRows(userId)).filter((r) => r.kind === kind && r.period === period)
            const current = paise(row?.amount ?? null)
            const outcome = classifyChange(current, requested)
            if (outcome === "inForce") {
              yield* sql`
                INSERT INTO protection_limits (user_id, kind, period, amount, in_force_since)
                VALUES (${userId}, ${kind}, ${period}, ${requested}, ${at})
                ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = EXCLUDED.amount, in_force_since = EXCLUDED.in_force_since,
                  pending_amount = NULL, pending_removal = false, requested_at = NULL, confirmable_at = NULL
              `
            } else if (outcome === "coolingOff") {
              yield* sql`
                UPDATE protection_limits SET pending_amount = ${requested}, pending_removal = ${requested === null},
                       requested_at = ${at}, confirmable_at = ${confirmableFrom(at)}
                 WHERE user_id = ${userId} AND kind = ${kind} AND period = ${period}
              `
            } else if (row?.requestedAt) {
              // Asking for the limit in force drops the change waiting to be confirmed.
              yield* sql`
                UPDATE protection_limits SET pending_amount = NULL, pending_removal = false, requested_at = NULL, confirmable_at = NULL
                 WHERE user_id = ${userId} AND kind = ${kind} AND period = ${period}
              `
            }
            const confirmableAt = outcome === "coolingOff" ? confirmableFrom(at) : undefined
            yield* audit(sql, {
              userId,
              actor,
              action: outcome === "coolingOff" ? "limit.requested" : outcome === "inForce" ? "limit.set" : "limit.kept",
              detail: { kind, period, amount: requested, previous: current, ...(confirmableAt ? { confirmableAt: confirmableAt.toISOString() } : {}) },
              at
            })
            return limitChangeMessage(kind, period, { outcome, amount: requested, inForce: current, ...(confirmableAt ? { confirmableAt } : {}) })
          }))
        return { state: yield* state(userId), message }
      })

      const confirmLimit = Effect.fn("Protection.confirmLimit")(function*(userId: string, kind: LimitKind, period: LimitPeriod, actor: Actor) {
        const message = yield* change(userId, (_, at) =>
          Effect.gen(function*() {
            const [row] = (yield* limitRows(userId)).filter((r) => r.kind === kind && r.period === period)
            if (!row?.requestedAt) return yield* conflict(`There is no change to confirm for your ${limitName(kind, period)}.`)
            const confirmableAt = row.confirmableAt!
            if (at < confirmableAt) {
              return yield* unprocessable(`You can confirm this change from ${indiaDateTime(confirmableAt)}, 24 hours after you asked for it.`, "CoolingOff")
            }
            const amount = row.pendingRemoval ? null : Number(row.pendingAmount)
            yield* sql`
              UPDATE protection_limits SET amount = ${amount}, in_force_since = ${amount === null ? null : at},
                     pending_amount = NULL, pending_removal = false, requested_at = NULL, confirmable_at = NULL
               WHERE user_id = ${userId} AND kind = ${kind} AND period = ${period}
            `
            yield* audit(sql, { userId, actor, action: "limit.confirmed", detail: { kind, period, amount, previous: paise(row.amount) }, at })
            return limitChangeMessage(kind, period, { outcome: "confirmed", amount, inForce: paise(row.amount) })
          }))
        return { state: yield* state(userId), message }
      })

      // Reality checks ------------------------------------------------------------------------

      const setRealityCheck = Effect.fn("Protection.setRealityCheck")(function*(userId: string, minutes: RealityCheckMinutes, actor: Actor) {
        yield* change(userId, (row, at) =>
          Effect.gen(function*() {
            yield* sql`UPDATE player_protection SET reality_check_minutes = ${minutes} WHERE user_id = ${userId}`
            yield* audit(sql, { userId, actor, action: "reality-check.set", detail: { minutes, previous: row.realityCheckMinutes ?? 0 }, at })
          }))
        // The first reminder comes a full interval after choosing it.
        yield* activity.remind(userId)
        const message = minutes === 0 ? "Reality checks are off." : `We will remind you every ${minutes} minutes how long you have played and how you stand.`
        return { state: yield* state(userId), message }
      })

      // Only a reminder that is showing can be answered: answering early would push the next one back without end.
      const continueSession = Effect.fn("Protection.continueSession")(function*(userId: string) {
        const row = yield* loadState(userId, false)
        const check = yield* activity.realityCheck(userId, row.realityCheckMinutes ?? 0)
        if (!check.due) {
          return yield* conflict(check.nextAt === null ? "Reality checks are off." : `There is no reality check to answer yet: the next one is at ${indiaDateTime(new Date(check.nextAt))}.`)
        }
        yield* activity.remind(userId)
        return yield* state(userId)
      })

      // Time-out and self-exclusion -----------------------------------------------------------

      const timeOut = Effect.fn("Protection.timeOut")(function*(userId: string, days: TimeOutDays, actor: Actor) {
        const message = yield* change(userId, (row, at) =>
          Effect.gen(function*() {
            const closure = closureAt(timesOf(row), at)
            if (closure?.reason === "SelfExcluded") return yield* forbidden(closureMessage(closure), "SelfExcluded")
            const until = timeOutEnd(at, days)
            const current = row.timeOutUntil
            if (current && current > at && current >= until) {
              return yield* forbidden(`You are already taking a break until ${indiaDateTime(current)}; a time-out cannot be shortened.`, "TimedOut")
            }
            // A longer break replaces a shorter one that is still running, from its start.
            const startedAt = current && current > at ? row.timeOutStartedAt! : at
            yield* sql`UPDATE player_protection SET time_out_started_at = ${startedAt}, time_out_until = ${until} WHERE user_id = ${userId}`
            yield* audit(sql, { userId, actor, action: "time-out", detail: { days, until: until.toISOString(), previousUntil: iso(current) }, at })
            return closureMessage({ reason: "TimedOut", until })
          }))
        return { state: yield* state(userId), message }
      })

      const selfExclude = Effect.fn("Protection.selfExclude")(function*(userId: string, months: ExclusionMonths, actor: Actor) {
        const message = yield* change(userId, (row, at) =>
          Effect.gen(function*() {
            const until = addMonthsInIndia(at, months)
            const current = row.excludedUntil
            if (current && current > at && current >= until) {
              return yield* forbidden(`Your account is already self-excluded until ${indiaDateTime(current)}; a self-exclusion cannot be shortened.`, "SelfExcluded")
            }
            const startedAt = current && current > at ? row.excludedAt! : at
            yield* sql`
              UPDATE player_protection SET excluded_at = ${startedAt}, excluded_until = ${until}, return_requested_at = NULL
               WHERE user_id = ${userId}
            `
            yield* audit(sql, { userId, actor, action: "self-exclusion", detail: { months, until: until.toISOString(), previousUntil: iso(current) }, at })
            // Play ends now on every device, sockets included (on every server, as a logout's); signing in again still
            // lets the player withdraw.
            const ended = yield* sessions.revokeAll(userId)
            yield* sql.afterCommit(realtime.endSessions(ended))
            return `${closureMessage({ reason: "SelfExcluded", until, stage: "excluded" })} You have been signed out.`
          }))
        return { state: yield* state(userId), message }
      })

      const requestReturn = Effect.fn("Protection.requestReturn")(function*(userId: string, actor: Actor) {
        const message = yield* change(userId, (row, at) =>
          Effect.gen(function*() {
            const closure = closureAt(timesOf(row), at)
            if (closure?.reason !== "SelfExcluded") return yield* conflict("Your account is not self-excluded.")
            if (closure.stage === "excluded") {
              return yield* forbidden(`Your self-exclusion runs until ${indiaDateTime(closure.until!)} and cannot be ended early.`, "SelfExcluded")
            }
            if (closure.stage === "returning") return yield* forbidden(closureMessage(closure), "SelfExcluded")
            yield* sql`UPDATE player_protection SET return_requested_at = ${at} WHERE user_id = ${userId}`
            yield* audit(sql, { userId, actor, action: "self-exclusion.return", detail: { reopensAt: new Date(at.getTime() + 86_400_000).toISOString() }, at })
            return closureMessage(closureAt({ ...timesOf(row), returnRequestedAt: at }, at)!)
          }))
        return { state: yield* state(userId), message }
      })

      // Sign-up -------------------------------------------------------------------------------

      const signedUp = Effect.fn("Protection.signedUp")(function*(userId: string, region: Region, actor: Actor) {
        const at = now()
        yield* sql`
          INSERT INTO player_protection (user_id, region, age_confirmed_at) VALUES (${userId}, ${region}, ${at})
          ON CONFLICT (user_id) DO UPDATE SET region = EXCLUDED.region, age_confirmed_at = EXCLUDED.age_confirmed_at
        `
        const switches = yield* sql`SELECT value FROM app_settings WHERE key = ${COMPLIANCE_KEY}`.pipe(decodeFirst(Schema.Struct({ value: Schema.Unknown })))
        const defaults = switchesOf(switches?.value).defaultLimits
        for (const limit of defaults) {
          yield* sql`
            INSERT INTO protection_limits (user_id, kind, period, amount, in_force_since)
            VALUES (${userId}, ${limit.kind}, ${limit.period}, ${toPaise(limit.amount)!}, ${at})
            ON CONFLICT (user_id, kind, period) DO NOTHING
          `
        }
        yield* audit(sql, { userId, actor, action: "signup", detail: { region, ageConfirmed: true, defaultLimits: defaults }, at })
      })

      // Enforcement ---------------------------------------------------------------------------

      const depositRules = (userId: string, amount: number, lock: boolean) =>
        Effect.gen(function*() {
          const row = yield* loadRules(userId, "deposit", lock)
          // Read after the lock: what a request that held it before us counted is older than this.
          const at = now()
          yield* refuseIfClosed(row, at)
          if (!switchesOf(row.switches).depositsOpen) return yield* unprocessable(DEPOSITS_CLOSED, "DepositsClosed")
          yield* enforceLimits("deposit", userId, row.inForce, amount, at, "deposit")
          return at
        })

      const checkDeposit = Effect.fn("Protection.checkDeposit")(function*(userId: string, amount: number) {
        yield* depositRules(userId, amount, false)
      })

      const admitDeposit = Effect.fn("Protection.admitDeposit")(function*(userId: string, depositId: string, amount: number) {
        const at = yield* depositRules(userId, amount, true)
        yield* sql`INSERT INTO protection_deposits (deposit_id, user_id, amount, at) VALUES (${depositId}, ${userId}, ${amount}, ${at})`
      })

      const lossRules = (userId: string, added: number, what: "bet" | "stake") =>
        Effect.flatMap(loadRules(userId, "loss", true), (row) => enforceLoss(row, userId, added, what))

      /**
       * Refuses a closed account, or `added` past a loss limit, by rules read under the player's row lock (or
       * verified under it, as a bet's are) and what the limits count (`counted`, else read now).
       */
      const enforceLoss = (row: ProtectionRules, userId: string, added: number, what: "bet" | "stake", counted?: Usage) =>
        Effect.gen(function*() {
          const at = now()
          yield* refuseIfClosed(row, at)
          yield* enforceLimits("loss", userId, row.inForce, added, at, what, counted)
          return at
        })

      const betInputArgs = () => {
        const { day, week, month } = windowsAt(now())
        return sql`${COMPLIANCE_KEY}, ${day}, ${week}, ${month}`
      }

      const admitBet = Effect.fn("Protection.admitBet")(function*(inputs: BetProtectionInputs, userId: string, added: number) {
        yield* enforceLoss(inputs, userId, added, "bet", inputs.open === null ? undefined : usageOf(inputs))
      })

      const admitCasinoStake = Effect.fn("Protection.admitCasinoStake")(function*(userId: string, amount: number, reference: string) {
        const at = yield* lossRules(userId, amount, "stake")
        yield* sql`INSERT INTO protection_results (user_id, source, amount, reference, at) VALUES (${userId}, 'casino', ${-amount}, ${reference}, ${at})`
      })

      const admitPlay = Effect.fn("Protection.admitPlay")(function*(userId: string) {
        yield* refuseIfClosed(yield* loadState(userId, false), now())
      })

      const admitPlayBy = Effect.fn("Protection.admitPlayBy")(function*(state: ProtectionRules) {
        yield* refuseIfClosed(state, now())
      })

      const recordResult = Effect.fn("Protection.recordResult")(function*(userId: string, source: "sports" | "casino", amount: number, reference: string) {
        if (amount === 0) return
        yield* sql`INSERT INTO protection_results (user_id, source, amount, reference, at) VALUES (${userId}, ${source}, ${amount}, ${reference}, ${now()})`
      })

      const hidesMarketing = Effect.fn("Protection.hidesMarketing")(function*(userId: string) {
        return closureAt(timesOf(yield* loadState(userId, false)), now()) !== undefined
      })

      // Operators -----------------------------------------------------------------------------

      const playerView = Effect.fn("Protection.playerView")(function*(user: string) {
        const found = yield* sql`
          SELECT id, username, name FROM users WHERE username = ${user.trim().toLowerCase()} OR id = ${user.trim()} LIMIT 1
        `.pipe(decodeFirst(Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String })))
        if (!found) return yield* notFound(`There is no player ${user}.`)
        const row = yield* loadState(found.id, false)
        const trail = yield* sql`
          SELECT at, actor, action, detail, ip FROM protection_audit WHERE user_id = ${found.id} ORDER BY id DESC LIMIT 100
        `.pipe(decodeRows(Schema.Struct({ at: Schema.Date, actor: Schema.String, action: Schema.String, detail: Schema.Unknown, ip: Schema.NullOr(Schema.String) })))
        return {
          user: { id: found.id, username: found.username, name: found.name, region: row.region, ageConfirmedAt: iso(row.ageConfirmedAt) },
          protection: yield* state(found.id),
          audit: trail.map((entry) => ({ ...entry, at: entry.at.toISOString() }))
        } satisfies PlayerProtection
      })

      return Protection.of({
        state,
        setLimit,
        confirmLimit,
        setRealityCheck,
        continueSession,
        timeOut,
        selfExclude,
        requestReturn,
        signedUp,
        checkDeposit,
        admitDeposit,
        betInputArgs,
        admitBet,
        admitCasinoStake,
        admitPlay,
        admitPlayBy,
        recordResult,
        hidesMarketing,
        playerView
      })
    })
  )
}
