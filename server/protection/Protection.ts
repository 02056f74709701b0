import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import {
  addMonthsInIndia,
  classifyChange,
  closureAt,
  closureMessage,
  confirmableFrom,
  type ExclusionMonths,
  indiaDateTime,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  limitAmountProblem,
  limitChangeMessage,
  type LimitKind,
  limitName,
  type LimitPeriod,
  type RealityCheckMinutes,
  timeOutEnd,
  type TimeOutDays
} from "../../src/domain/protection.ts"
import type { Region } from "../../src/domain/regions.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { type Limit, type PlayerProtection, type Protection as ProtectionView, type SetLimitPayload } from "../../src/schema/protection.ts"
import { decodeFirst, decodeRows, iso } from "../db/rows.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Activity } from "./Activity.ts"
import { type Actor, audit } from "./audit.ts"
import { COMPLIANCE_KEY, switchesOf } from "./Compliance.ts"
import { checkOf, closureOf, type LimitRow, protectionReads, type StateRow, timesOf, type Usage } from "./rules.ts"

type Failure = ApiError | SqlError.SqlError

/** A change of protection and what the player is told about it. */
export interface Changed {
  readonly state: ProtectionView
  readonly message: string
}

const paise = (value: bigint | null) => (value === null ? null : Number(value))

/**
 * Player protection as the player sets it: financial limits with their
 * cooling-off, reality checks, time-outs and self-exclusion, what sign-up
 * sets, and the operator's view of it. Where money moves, `Admission`
 * (Admission.ts) enforces it.
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

      const { loadState, ensureRow, limitRows, usage } = protectionReads(sql)

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
              returnsAt: iso(returnRequestedAt && new Date(returnRequestedAt.getTime() + 86_400_000))
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
          if (problem) return yield* refuse("InvalidInput", problem)
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
            if (!row?.requestedAt) return yield* refuse("Conflict", `There is no change to confirm for your ${limitName(kind, period)}.`)
            const confirmableAt = row.confirmableAt!
            if (at < confirmableAt) {
              return yield* refuse("CoolingOff", `You can confirm this change from ${indiaDateTime(confirmableAt)}, 24 hours after you asked for it.`)
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
          return yield* refuse("Conflict", check.nextAt === null ? "Reality checks are off." : `There is no reality check to answer yet: the next one is at ${indiaDateTime(new Date(check.nextAt))}.`)
        }
        yield* activity.remind(userId)
        return yield* state(userId)
      })

      // Time-out and self-exclusion -----------------------------------------------------------

      const timeOut = Effect.fn("Protection.timeOut")(function*(userId: string, days: TimeOutDays, actor: Actor) {
        const message = yield* change(userId, (row, at) =>
          Effect.gen(function*() {
            const closure = closureAt(timesOf(row), at)
            if (closure?.reason === "SelfExcluded") return yield* refuse("SelfExcluded", closureMessage(closure))
            const until = timeOutEnd(at, days)
            const current = row.timeOutUntil
            if (current && current > at && current >= until) {
              return yield* refuse("TimedOut", `You are already taking a break until ${indiaDateTime(current)}; a time-out cannot be shortened.`)
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
              return yield* refuse("SelfExcluded", `Your account is already self-excluded until ${indiaDateTime(current)}; a self-exclusion cannot be shortened.`)
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
            if (closure?.reason !== "SelfExcluded") return yield* refuse("Conflict", "Your account is not self-excluded.")
            if (closure.stage === "excluded") {
              return yield* refuse("SelfExcluded", `Your self-exclusion runs until ${indiaDateTime(closure.until!)} and cannot be ended early.`)
            }
            if (closure.stage === "returning") return yield* refuse("SelfExcluded", closureMessage(closure))
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

      // Operators -----------------------------------------------------------------------------

      const playerView = Effect.fn("Protection.playerView")(function*(user: string) {
        const found = yield* sql`
          SELECT id, username, name FROM users WHERE username = ${user.trim().toLowerCase()} OR id = ${user.trim()} LIMIT 1
        `.pipe(decodeFirst(Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String })))
        if (!found) return yield* refuse("NotFound", `There is no player ${user}.`)
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
        playerView
      })
    })
  )
}
