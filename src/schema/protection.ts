import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { EXCLUSION_MONTHS, LIMIT_KINDS, LIMIT_PERIODS, REALITY_CHECK_MINUTES, TIME_OUT_DAYS } from "../domain/protection.ts"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { Authentication, Requires, StaffAuthentication } from "./middleware.ts"
import { Region } from "./region.ts"
import { Rupees } from "./user.ts"

/**
 * Player protection (docs/protection.md): financial limits with cooling-off,
 * reality checks, time-outs, self-exclusion and the activity statement, and
 * the operator's compliance switches. Money is rupees with two decimals,
 * times are ISO instants on the server's clock (`serverTime` says what that
 * clock reads, so a client can schedule against it).
 */

export const LimitKind = Schema.Literals(LIMIT_KINDS)
export type LimitKind = typeof LimitKind.Type
export const LimitPeriod = Schema.Literals(LIMIT_PERIODS)
export type LimitPeriod = typeof LimitPeriod.Type
export const RealityCheckMinutes = Schema.Literals(REALITY_CHECK_MINUTES)
export const TimeOutDays = Schema.Literals(TIME_OUT_DAYS)
export const ExclusionMonths = Schema.Literals(EXCLUSION_MONTHS)

const Instant = Schema.String

/** `amount: null` removes the limit (after the cooling-off, like an increase). */
export const SetLimitPayload = Schema.Struct({ kind: LimitKind, period: LimitPeriod, amount: Schema.NullOr(Rupees) })
export type SetLimitPayload = typeof SetLimitPayload.Type

export const ConfirmLimitPayload = Schema.Struct({ kind: LimitKind, period: LimitPeriod })
export type ConfirmLimitPayload = typeof ConfirmLimitPayload.Type

export const RealityCheckPayload = Schema.Struct({ minutes: RealityCheckMinutes })
export type RealityCheckPayload = typeof RealityCheckPayload.Type

export const TimeOutPayload = Schema.Struct({ days: TimeOutDays })
export type TimeOutPayload = typeof TimeOutPayload.Type

export const SelfExclusionPayload = Schema.Struct({ months: ExclusionMonths })
export type SelfExclusionPayload = typeof SelfExclusionPayload.Type

/** An increase or removal waiting out its 24 hours; it applies only once confirmed at or after `confirmableAt`. */
export const PendingLimit = Schema.Struct({
  amount: Schema.NullOr(Rupees),
  requestedAt: Instant,
  confirmableAt: Instant
})
export type PendingLimit = typeof PendingLimit.Type

/**
 * One limit (a kind over a period). `used` is what the window counts now:
 * gross deposits requested (rejected ones excepted), or the net loss of
 * settled bets and casino rounds plus what open bets can still lose.
 */
export const Limit = Schema.Struct({
  kind: LimitKind,
  period: LimitPeriod,
  amount: Schema.NullOr(Rupees),
  inForceSince: Schema.NullOr(Instant),
  used: Rupees,
  remaining: Schema.NullOr(Rupees),
  /** When the oldest amount counted leaves the window (more room opens). */
  resetsAt: Schema.NullOr(Instant),
  pending: Schema.NullOr(PendingLimit)
})
export type Limit = typeof Limit.Type

/**
 * The reality check of the current session. A session is the player's
 * activity with no gap of 30 minutes; the reminder is due at `nextAt`
 * (`minutes` after the session started or the last reminder was answered).
 */
export const RealityCheck = Schema.Struct({
  minutes: RealityCheckMinutes,
  sessionStartedAt: Instant,
  elapsedSeconds: Schema.Int,
  /** Won minus lost in settled bets and casino rounds since the session started. */
  netResult: Rupees,
  nextAt: Schema.NullOr(Instant),
  due: Schema.Boolean
})
export type RealityCheck = typeof RealityCheck.Type

export const TimeOut = Schema.Struct({ startedAt: Instant, until: Instant })
export type TimeOut = typeof TimeOut.Type

/** `returnsAt`: when the account reopens, once the player asked to return after the exclusion ended. */
export const SelfExclusion = Schema.Struct({
  startedAt: Instant,
  until: Instant,
  returnRequestedAt: Schema.NullOr(Instant),
  returnsAt: Schema.NullOr(Instant)
})
export type SelfExclusion = typeof SelfExclusion.Type

export const ClosureReason = Schema.Literals(["TimedOut", "SelfExcluded", "RegionBlocked"])

/** Why the account is closed to bets, casino and deposits now (withdrawals stay open). */
export const Closure = Schema.Struct({
  reason: ClosureReason,
  /** null: until the player asks to return (an ended self-exclusion) or the operator serves the region again. */
  until: Schema.NullOr(Instant),
  message: Schema.String
})
export type Closure = typeof Closure.Type

export const Protection = Schema.Struct({
  serverTime: Instant,
  /** Always six: deposit and loss, each over day, week and month. */
  limits: Schema.Array(Limit),
  realityCheck: RealityCheck,
  timeOut: Schema.NullOr(TimeOut),
  selfExclusion: Schema.NullOr(SelfExclusion),
  closed: Schema.NullOr(Closure)
})
export type Protection = typeof Protection.Type

/** One calendar month (India time) of the activity statement. */
export const ActivityMonth = Schema.Struct({
  /** YYYY-MM */
  month: Schema.String,
  /** Approved deposits. */
  deposits: Rupees,
  /** Withdrawals paid out. */
  withdrawals: Rupees,
  /** Sports stakes placed (voided bets excepted) and casino stakes (refunds excepted). */
  stakes: Rupees,
  /** Won minus lost in settled bets and casino rounds. */
  netResult: Rupees,
  timeSpentSeconds: Schema.Int
})
export type ActivityMonth = typeof ActivityMonth.Type

/** The last 12 months, oldest first, the current month last. */
export const ActivityStatement = Schema.Struct({ months: Schema.Array(ActivityMonth) })
export type ActivityStatement = typeof ActivityStatement.Type

/** Signed-in players (and credit players): their own protection. */
export class ProtectionApi extends HttpApiGroup.make("protection")
  .add(
    HttpApiEndpoint.get("protection", "/protection", { success: Envelope(Protection) }),
    HttpApiEndpoint.put("setLimit", "/protection/limits", { payload: SetLimitPayload, success: Envelope(Protection) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded"]),
    HttpApiEndpoint.post("confirmLimit", "/protection/limits/confirm", { payload: ConfirmLimitPayload, success: Envelope(Protection) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Conflict", "CoolingOff"]),
    HttpApiEndpoint.put("setRealityCheck", "/protection/reality-check", { payload: RealityCheckPayload, success: Envelope(Protection) }),
    /** The player answered the reminder (Continue or View statement): the next one is `minutes` from now. */
    HttpApiEndpoint.post("continueSession", "/protection/reality-check/continue", { payload: Schema.Struct({}), success: Envelope(Protection) })
      .annotate(Reasons, ["SessionEnded", "Conflict"]),
    HttpApiEndpoint.post("timeOut", "/protection/time-out", { payload: TimeOutPayload, success: Envelope(Protection) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "TimedOut", "SelfExcluded"]),
    HttpApiEndpoint.post("selfExclude", "/protection/self-exclusion", { payload: SelfExclusionPayload, success: Envelope(Protection) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "SelfExcluded"]),
    /** After a self-exclusion has ended: the account reopens 24 hours after this call. */
    HttpApiEndpoint.post("requestReturn", "/protection/return", { payload: Schema.Struct({}), success: Envelope(Protection) })
      .annotate(Reasons, ["SessionEnded", "Conflict", "SelfExcluded"]),
    HttpApiEndpoint.get("activity", "/protection/activity", { success: Envelope(ActivityStatement) })
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}

// Operators -----------------------------------------------------------------------------------

export const DefaultLimit = Schema.Struct({ kind: LimitKind, period: LimitPeriod, amount: Rupees })
export type DefaultLimit = typeof DefaultLimit.Type

/** The operator's compliance switches. */
export const ComplianceSettings = Schema.Struct({
  /** Sign-ups from these states are refused, and their players cannot bet, play or deposit. */
  blockedRegions: Schema.Array(Region),
  /**
   * A request header naming the visitor's region (e.g. "cf-region-code"), set by a
   * geolocating proxy; read only when the server runs with TRUST_PROXY on.
   */
  regionHeader: Schema.NullOr(Schema.String.check(Schema.isPattern(/^[a-z0-9-]{1,64}$/))),
  /** Off: no real-money deposits; the site runs on demo credit. */
  depositsOpen: Schema.Boolean,
  /** Limits every new player starts with (they can lower them at once, or raise them after the cooling-off). */
  defaultLimits: Schema.Array(DefaultLimit)
})
export type ComplianceSettings = typeof ComplianceSettings.Type

export const ComplianceSettingsUpdate = Schema.Struct({
  blockedRegions: Schema.optionalKey(ComplianceSettings.fields.blockedRegions),
  regionHeader: Schema.optionalKey(ComplianceSettings.fields.regionHeader),
  depositsOpen: Schema.optionalKey(Schema.Boolean),
  defaultLimits: Schema.optionalKey(ComplianceSettings.fields.defaultLimits)
})
export type ComplianceSettingsUpdate = typeof ComplianceSettingsUpdate.Type

/** One change to a player's protection (or to the switches): append-only, never edited. */
export const AuditRecord = Schema.Struct({
  at: Instant,
  /** Who acted: a user id (the player, or an operator), "cli", or "system". */
  actor: Schema.String,
  action: Schema.String,
  detail: Schema.Unknown,
  ip: Schema.NullOr(Schema.String)
})
export type AuditRecord = typeof AuditRecord.Type

export const PlayerProtection = Schema.Struct({
  user: Schema.Struct({
    id: Schema.String,
    username: Schema.String,
    name: Schema.String,
    region: Schema.NullOr(Schema.String),
    ageConfirmedAt: Schema.NullOr(Instant)
  }),
  protection: Protection,
  /** Newest first, at most 100. */
  audit: Schema.Array(AuditRecord)
})
export type PlayerProtection = typeof PlayerProtection.Type

/** Operators only. There is deliberately no call that lifts or shortens a time-out or self-exclusion. */
export class ProtectionAdminApi extends HttpApiGroup.make("protectionAdmin")
  .add(
    HttpApiEndpoint.get("settings", "/protection-settings", { success: Envelope(ComplianceSettings) }).annotate(Requires, "settings.manage"),
    HttpApiEndpoint.put("updateSettings", "/protection-settings", { payload: ComplianceSettingsUpdate, success: Envelope(ComplianceSettings) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput"]),
    HttpApiEndpoint.get("player", "/protection/:user", { params: { user: Schema.String }, success: Envelope(PlayerProtection) }).annotate(Requires, "players.read")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
{}
