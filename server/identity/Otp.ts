import { Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, randomInt, timingSafeEqual } from "node:crypto"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { ServerConfig } from "../config.ts"
import { decodeFirst } from "../db/rows.ts"
import { RateLimits, waitText } from "../limits/RateLimits.ts"
import { Sms, type OtpPurpose } from "./Sms.ts"

export const OTP_TTL_SECONDS = 5 * 60
export const OTP_MAX_TRIES = 5
export const OTP_MAX_SENDS_PER_HOUR = 5
export const OTP_RESEND_SECONDS = 10
/** Wrong codes a number may enter in a day (for one purpose) before codes for it are refused for a day. */
export const OTP_MAX_WRONG_PER_DAY = 10
export const OTP_BLOCK_SECONDS = 24 * 3600

/** The latest code sent: it decides whether a sign-in or a reset goes through. */
const CodeRow = Schema.Struct({ id: Schema.String, codeHash: Schema.String, attempts: Schema.Int, expired: Schema.Boolean, consumed: Schema.Boolean })
const PurposeRow = Schema.Struct({ purpose: Schema.Literals(["signup", "reset"]) })

const digest = (mobileNo: string, purpose: OtpPurpose, code: string) =>
  createHash("sha256").update(`${mobileNo}:${purpose}:${code}`).digest()

export type OtpCheck = "ok" | "wrong" | "expired" | "exhausted" | "blocked"

export const otpFailure = (check: Exclude<OtpCheck, "ok" | "blocked">): ApiError =>
  check === "wrong"
    ? refuse("Refused", "Invalid OTP")
    : check === "expired"
    ? refuse("Refused", "OTP has expired. Please request a new one.")
    : refuse("RateLimited", "Too many wrong attempts. Please request a new OTP.")

/** After too many wrong codes in a day: what the number may not do, and for how long. */
export const codesBlocked = (purpose: OtpPurpose, seconds: number): ApiError =>
  refuse("CodesBlocked", `Too many wrong codes were entered for this number today. For your security, ${
      purpose === "reset" ? "password reset" : "sign-up"
    } for this number is paused for ${waitText(seconds)}. Contact support if you need help sooner.`)

/** Where a request for a code came from, for the per-address limit. */
export interface Requester {
  readonly ip?: string | undefined
}

/**
 * Four-digit one-time codes bound to a phone number and a purpose: valid 5
 * minutes, 5 wrong tries per code. Sending is limited per number (one every
 * 10 s, 5 an hour), per address and for the whole site (SMS pumping), and a
 * number that enters 10 wrong codes in a day gets no codes for that purpose
 * for 24 hours (a 4-digit code cannot be worn down over weeks). Limits count
 * every number alike, registered or not. Messages go out after the answer
 * (and after the transaction commits), so their delivery never shows in the
 * time a request takes.
 */
export class Otp extends Context.Service<Otp, {
  /**
   * Counts a request for a code and stores one; `deliver: false` keeps a code
   * nobody receives, for a number that must not look different from one
   * that does (forgot-password for an unknown number).
   */
  issue(mobileNo: string, purpose: OtpPurpose, requester: Requester, options?: { readonly deliver?: boolean }): Effect.Effect<void, ApiError | SqlError.SqlError>
  /** Checks a code and records the try; its own transaction, so a wrong try counts even when the request fails. */
  check(mobileNo: string, purpose: OtpPurpose, code: string): Effect.Effect<OtpCheck, SqlError.SqlError>
  /** Seconds this number is still refused codes for `purpose` after too many wrong ones (0: not refused). */
  blockedFor(mobileNo: string, purpose: OtpPurpose): Effect.Effect<number>
  /** The purpose of the newest code still waiting for this number, if any. */
  pending(mobileNo: string): Effect.Effect<OtpPurpose | undefined, SqlError.SqlError>
  /** Removes sign-ups never verified within `hours` (and their ledger accounts, which never had an entry). */
  readonly expirePendingSignUps: Effect.Effect<number, SqlError.SqlError>
}>()("khel/Otp") {
  static readonly layer = Layer.effect(
    Otp,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sms = yield* Sms
      const limits = yield* RateLimits
      const config = yield* ServerConfig
      const scope = yield* Effect.scope
      const gap = limits.make({ name: "otp_gap", points: 1, seconds: OTP_RESEND_SECONDS })
      const perNumber = limits.make({ name: "otp_number", points: OTP_MAX_SENDS_PER_HOUR, seconds: 3600 })
      const perAddress = limits.make({ name: "otp_address", points: config.limits.smsPerAddressPerHour, seconds: 3600 })
      const global = limits.make({ name: "otp_global", points: config.limits.smsPerHour, seconds: 3600 })
      const wrongCodes = limits.make({ name: "otp_wrong", points: OTP_MAX_WRONG_PER_DAY, seconds: OTP_BLOCK_SECONDS })
      const wrongKey = (mobileNo: string, purpose: OtpPurpose) => `${purpose}:${mobileNo}`

      const blockedFor = (mobileNo: string, purpose: OtpPurpose) => wrongCodes.waitFor(wrongKey(mobileNo, purpose))

      /**
       * The first limit a request for a code runs into, if any: the address
       * first (what it is refused does not touch anyone's number), the whole
       * site last (only codes about to go out count against everyone's budget).
       */
      const admit = (mobileNo: string, requester: Requester) =>
        Effect.gen(function*() {
          const fromAddress = yield* perAddress.take(requester.ip ?? "unknown")
          if (!fromAddress.allowed) {
            return yield* refuse("RateLimited", `Too many codes were requested from your network. Try again in ${waitText(fromAddress.retryAfterSeconds)}.`)
          }
          const spaced = yield* gap.take(mobileNo)
          if (!spaced.allowed) return yield* refuse("RateLimited", `Please wait ${spaced.retryAfterSeconds} seconds before requesting another OTP.`)
          const hourly = yield* perNumber.take(mobileNo)
          if (!hourly.allowed) return yield* refuse("RateLimited", `Too many OTP requests. Try again in ${waitText(hourly.retryAfterSeconds)}.`)
          const site = yield* global.take("all")
          if (!site.allowed) {
            yield* Effect.logWarning("SMS limit for the whole site reached (SMS_PER_HOUR): codes are refused", { retryAfterSeconds: site.retryAfterSeconds })
            return yield* refuse("RateLimited", `We cannot send codes right now. Please try again in ${waitText(site.retryAfterSeconds)}.`)
          }
        })

      const issue = Effect.fn("Otp.issue")(function*(mobileNo: string, purpose: OtpPurpose, requester: Requester, options?: { readonly deliver?: boolean }) {
        yield* admit(mobileNo, requester)
        const code = String(randomInt(0, 10_000)).padStart(4, "0")
        yield* sql`
          INSERT INTO otp_codes (mobile_no, purpose, code_hash, expires_at)
          VALUES (${mobileNo}, ${purpose}, ${digest(mobileNo, purpose, code).toString("hex")}, now() + ${`${OTP_TTL_SECONDS} seconds`}::interval)
        `
        if (options?.deliver === false) return
        yield* sql.afterCommit(Effect.asVoid(Effect.forkIn(sms.sendOtp(mobileNo, purpose, code), scope)))
      })

      const check = Effect.fn("Otp.check")(function*(mobileNo: string, purpose: OtpPurpose, code: string) {
        if ((yield* blockedFor(mobileNo, purpose)) > 0) return "blocked" as const
        const { result, guessed } = yield* sql.withTransaction(Effect.gen(function*() {
          const latest = yield* sql`
            SELECT id, code_hash, attempts, expires_at < now() AS expired, consumed_at IS NOT NULL AS consumed
              FROM otp_codes WHERE mobile_no = ${mobileNo} AND purpose = ${purpose}
             ORDER BY created_at DESC LIMIT 1 FOR UPDATE
          `.pipe(decodeFirst(CodeRow))
          if (!latest || latest.consumed || latest.expired) return { result: "expired" as const, guessed: false }
          if (latest.attempts >= OTP_MAX_TRIES) return { result: "exhausted" as const, guessed: false }
          const expected = Buffer.from(latest.codeHash, "hex")
          const given = /^\d{4}$/.test(code) ? digest(mobileNo, purpose, code) : Buffer.alloc(expected.length)
          if (expected.length === given.length && timingSafeEqual(expected, given) && /^\d{4}$/.test(code)) {
            yield* sql`UPDATE otp_codes SET consumed_at = now() WHERE id = ${latest.id}`
            return { result: "ok" as const, guessed: false }
          }
          yield* sql`UPDATE otp_codes SET attempts = attempts + 1 WHERE id = ${latest.id}`
          return { result: latest.attempts + 1 >= OTP_MAX_TRIES ? "exhausted" as const : "wrong" as const, guessed: true }
        }))
        if (guessed) {
          // Wrong guesses count per number and day, whatever the code: past the cap the number waits a day.
          if (yield* wrongCodes.strike(wrongKey(mobileNo, purpose))) return "blocked" as const
        }
        return result
      })

      const pending = Effect.fn("Otp.pending")(function*(mobileNo: string) {
        const row = yield* sql`
          SELECT purpose FROM otp_codes
           WHERE mobile_no = ${mobileNo} AND consumed_at IS NULL AND created_at > now() - interval '1 hour'
           ORDER BY created_at DESC LIMIT 1
        `.pipe(decodeFirst(PurposeRow))
        return row?.purpose
      })

      const expirePendingSignUps = Effect.gen(function*() {
        const hours = `${config.limits.pendingSignUpHours} hours`
        return yield* sql.withTransaction(Effect.gen(function*() {
          // Cast, not decoded: ids only, used as keys.
          const expired = yield* sql<{ id: string }>`
            SELECT id FROM users u
             WHERE status = 'pending' AND created_at < now() - ${hours}::interval
               AND NOT EXISTS (SELECT 1 FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.user_id = u.id)
               AND NOT EXISTS (SELECT 1 FROM users r WHERE r.referred_by = u.id)
             FOR UPDATE SKIP LOCKED
          `
          const ids = expired.map((row) => row.id)
          if (ids.length === 0) return 0
          yield* sql`DELETE FROM ledger_accounts WHERE user_id IN ${sql.in(ids)}`
          yield* sql`DELETE FROM users WHERE id IN ${sql.in(ids)} AND status = 'pending'`
          yield* sql`DELETE FROM otp_codes WHERE purpose = 'signup' AND created_at < now() - ${hours}::interval`
          return ids.length
        }))
      }).pipe(Effect.withSpan("Otp.expirePendingSignUps"))

      // Unverified sign-ups (each a number someone typed, maybe not theirs) do not pile up.
      yield* expirePendingSignUps.pipe(
        Effect.tap((removed) => (removed > 0 ? Effect.logInfo("unverified sign-ups removed", { removed }) : Effect.void)),
        Effect.catchCause((cause) => Effect.logWarning("removing unverified sign-ups failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.minutes(15))),
        Effect.forkScoped
      )

      return Otp.of({ issue, check, blockedFor, pending, expirePendingSignUps })
    })
  )
}
