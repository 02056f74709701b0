import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { createHash, randomInt, timingSafeEqual } from "node:crypto"
import { fail, type ApiError, tooMany } from "../../src/schema/envelope.ts"
import { Sms, type OtpPurpose } from "./Sms.ts"

export const OTP_TTL_SECONDS = 5 * 60
export const OTP_MAX_TRIES = 5
export const OTP_MAX_SENDS_PER_HOUR = 5
export const OTP_RESEND_SECONDS = 10

const digest = (mobileNo: string, purpose: OtpPurpose, code: string) =>
  createHash("sha256").update(`${mobileNo}:${purpose}:${code}`).digest()

export type OtpCheck = "ok" | "wrong" | "expired" | "exhausted"

export const otpFailure = (check: Exclude<OtpCheck, "ok">): ApiError =>
  check === "wrong"
    ? fail(422, "Invalid OTP")
    : check === "expired"
    ? fail(422, "OTP has expired. Please request a new one.")
    : fail(429, "Too many wrong attempts. Please request a new OTP.")

/**
 * Four-digit one-time codes bound to a phone number and a purpose: valid 5
 * minutes, 5 wrong tries per code, 5 sends per number per hour, a resend no
 * sooner than 10 s after the last.
 */
export class Otp extends Context.Service<Otp, {
  issue(mobileNo: string, purpose: OtpPurpose): Effect.Effect<void, ApiError | SqlError.SqlError>
  /** Checks a code and records the try; its own transaction, so a wrong try counts even when the request fails. */
  check(mobileNo: string, purpose: OtpPurpose, code: string): Effect.Effect<OtpCheck, SqlError.SqlError>
  /** The purpose of the newest code still waiting for this number, if any. */
  pending(mobileNo: string): Effect.Effect<OtpPurpose | undefined, SqlError.SqlError>
}>()("khel/Otp") {
  static readonly layer = Layer.effect(
    Otp,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sms = yield* Sms

      const issue = Effect.fn("Otp.issue")(function*(mobileNo: string, purpose: OtpPurpose) {
        const recent = yield* sql<{ createdAt: Date }>`
          SELECT created_at FROM otp_codes
           WHERE mobile_no = ${mobileNo} AND created_at > now() - interval '1 hour'
           ORDER BY created_at DESC
        `
        const now = Date.now()
        const last = recent[0]
        if (last && now - last.createdAt.getTime() < OTP_RESEND_SECONDS * 1000) {
          const wait = Math.ceil((OTP_RESEND_SECONDS * 1000 - (now - last.createdAt.getTime())) / 1000)
          return yield* tooMany(`Please wait ${wait} seconds before requesting another OTP.`)
        }
        if (recent.length >= OTP_MAX_SENDS_PER_HOUR) {
          const oldest = recent[recent.length - 1]!.createdAt.getTime()
          const minutes = Math.max(1, Math.ceil((oldest + 3600_000 - now) / 60_000))
          return yield* tooMany(`Too many OTP requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`)
        }
        const code = String(randomInt(0, 10_000)).padStart(4, "0")
        yield* sql`
          INSERT INTO otp_codes (mobile_no, purpose, code_hash, expires_at)
          VALUES (${mobileNo}, ${purpose}, ${digest(mobileNo, purpose, code).toString("hex")}, now() + ${`${OTP_TTL_SECONDS} seconds`}::interval)
        `
        yield* sms.sendOtp(mobileNo, purpose, code)
      })

      const check = Effect.fn("Otp.check")(function*(mobileNo: string, purpose: OtpPurpose, code: string) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [latest] = yield* sql<{ id: string; codeHash: string; attempts: number; expired: boolean; consumed: boolean }>`
            SELECT id, code_hash, attempts, expires_at < now() AS expired, consumed_at IS NOT NULL AS consumed
              FROM otp_codes WHERE mobile_no = ${mobileNo} AND purpose = ${purpose}
             ORDER BY created_at DESC LIMIT 1 FOR UPDATE
          `
          if (!latest || latest.consumed || latest.expired) return "expired" as const
          if (latest.attempts >= OTP_MAX_TRIES) return "exhausted" as const
          const expected = Buffer.from(latest.codeHash, "hex")
          const given = /^\d{4}$/.test(code) ? digest(mobileNo, purpose, code) : Buffer.alloc(expected.length)
          if (expected.length === given.length && timingSafeEqual(expected, given) && /^\d{4}$/.test(code)) {
            yield* sql`UPDATE otp_codes SET consumed_at = now() WHERE id = ${latest.id}`
            return "ok" as const
          }
          yield* sql`UPDATE otp_codes SET attempts = attempts + 1 WHERE id = ${latest.id}`
          return latest.attempts + 1 >= OTP_MAX_TRIES ? "exhausted" as const : "wrong" as const
        }))
      })

      const pending = Effect.fn("Otp.pending")(function*(mobileNo: string) {
        const [row] = yield* sql<{ purpose: OtpPurpose }>`
          SELECT purpose FROM otp_codes
           WHERE mobile_no = ${mobileNo} AND consumed_at IS NULL AND created_at > now() - interval '1 hour'
           ORDER BY created_at DESC LIMIT 1
        `
        return row?.purpose
      })

      return Otp.of({ issue, check, pending })
    })
  )
}
