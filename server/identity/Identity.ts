import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { INVALID_PHONE, normalizePhone } from "../../src/domain/phone.ts"
import {
  MESSAGES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_TOO_SHORT,
  validateLogin,
  validateSignUp
} from "../../src/domain/validation.ts"
import { badRequest, conflict, fail, forbidden, type ApiError, notFound, tooMany, unprocessable } from "../../src/schema/envelope.ts"
import type {
  ChangePasswordPayload,
  LoginPayload,
  MobilePayload,
  ResetPasswordPayload,
  SignUpPayload,
  VerifyOtpPayload
} from "../../src/schema/identity.ts"
import { Roles, type User } from "../../src/schema/user.ts"
import { Protection } from "../protection/Protection.ts"
import { Otp, otpFailure } from "./Otp.ts"
import { Passwords } from "./Passwords.ts"
import { type SessionUser, Sessions } from "./Sessions.ts"
import { ACCOUNT_MAX_FAILURES, ADDRESS_MAX_FAILURES, Throttle } from "./Throttle.ts"
import { Users } from "./Users.ts"

export interface Client {
  readonly ip?: string | undefined
  readonly userAgent?: string | undefined
}

export interface SignedIn {
  readonly token: string
  readonly user: User
}

type Failure = ApiError | SqlError.SqlError

const firstError = (errors: Partial<Record<string, string>>) => Object.values(errors).find((message) => message !== undefined)

const phoneOf = (input: string | undefined) =>
  Effect.gen(function*() {
    if (input === undefined || input.trim() === "") return yield* badRequest(MESSAGES.mobileRequired)
    const phone = normalizePhone(input)
    if (!phone) return yield* badRequest(INVALID_PHONE)
    return phone
  })

const checkPasswordShape = (password: string) =>
  password.length < PASSWORD_MIN
    ? badRequest(PASSWORD_TOO_SHORT)
    : password.length > PASSWORD_MAX
    ? badRequest(`Password must be at most ${PASSWORD_MAX} characters`)
    : Effect.void

/**
 * Visitors becoming players and players' sessions: sign-up with an OTP,
 * sign-in by phone or username with throttling, password reset and change,
 * logout. Every failure is an `ApiError` the player can read.
 */
export class Identity extends Context.Service<Identity, {
  signUp(payload: SignUpPayload, client?: Client): Effect.Effect<string, Failure>
  verifyOtp(payload: VerifyOtpPayload, client: Client): Effect.Effect<SignedIn, Failure>
  resendOtp(payload: MobilePayload): Effect.Effect<string, Failure>
  login(payload: LoginPayload, client: Client): Effect.Effect<SignedIn, Failure>
  forgotPassword(payload: MobilePayload): Effect.Effect<string, Failure>
  resetPassword(payload: ResetPasswordPayload): Effect.Effect<void, Failure>
  changePassword(user: SessionUser, payload: ChangePasswordPayload, client: Client): Effect.Effect<string, Failure>
  logout(user: SessionUser): Effect.Effect<void, Failure>
}>()("khel/Identity") {
  static readonly layer = Layer.effect(
    Identity,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const passwords = yield* Passwords
      const otp = yield* Otp
      const sessions = yield* Sessions
      const throttle = yield* Throttle
      const protection = yield* Protection

      const signIn = (userId: string, client: Client) =>
        Effect.gen(function*() {
          const token = yield* sessions.create(userId, client)
          return { token, user: yield* users.view(userId) }
        })

      const signUp = Effect.fn("Identity.signUp")(function*(payload: SignUpPayload, client: Client = {}) {
        const invalid = firstError(validateSignUp({
          name: payload.name,
          mobileNo: payload.mobile_no,
          password: payload.password,
          confirmPassword: payload.confirmPassword,
          ageConfirmed: payload.ageConfirmed,
          region: payload.region
        }))
        if (invalid) return yield* badRequest(invalid)
        yield* checkPasswordShape(payload.password)
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const code = payload.affiliateCode?.trim()
        const referrer = code ? yield* users.byReferralCode(code) : undefined
        if (code && !referrer) return yield* unprocessable("This referral code is not valid. Check it, or leave it empty.")
        const passwordHash = yield* passwords.hash(payload.password)
        yield* sql.withTransaction(Effect.gen(function*() {
          const existing = yield* users.byMobile(mobileNo)
          if (existing && existing.status !== "pending") {
            return yield* conflict("This mobile number is already registered. Please log in.")
          }
          let userId: string
          if (existing) {
            // Signing up again before verifying: keep the account, take the new details.
            yield* sql`
              UPDATE users SET name = ${payload.name.trim()}, password_hash = ${passwordHash}, referred_by = ${referrer?.id ?? null}
               WHERE id = ${existing.id}
            `
            userId = existing.id
          } else {
            userId = (yield* users.create({ name: payload.name, mobileNo, passwordHash, role: Roles.PLAYER, status: "pending", referredBy: referrer?.id ?? null })).id
          }
          // The declared state and the age confirmation, with when; the operator's default limits.
          yield* protection.signedUp(userId, payload.region, { id: userId, ip: client.ip })
          yield* otp.issue(mobileNo, "signup")
        }))
        return mobileNo
      })

      const verifyOtp = Effect.fn("Identity.verifyOtp")(function*(payload: VerifyOtpPayload, client: Client) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        if (!/^\d{4}$/.test(payload.otp)) return yield* badRequest(MESSAGES.otpRequired)
        const user = yield* users.byMobile(mobileNo)
        if (!user || user.status !== "pending") return yield* otpFailure("expired")
        const check = yield* otp.check(mobileNo, "signup", payload.otp)
        if (check !== "ok") return yield* otpFailure(check)
        yield* sql`UPDATE users SET status = 'active' WHERE id = ${user.id} AND status = 'pending'`
        return yield* signIn(user.id, client)
      })

      const resendOtp = Effect.fn("Identity.resendOtp")(function*(payload: MobilePayload) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const user = yield* users.byMobile(mobileNo)
        const purpose = (yield* otp.pending(mobileNo)) ?? (user?.status === "pending" ? "signup" : undefined)
        if (!user || !purpose || (purpose === "signup" && user.status !== "pending")) {
          return yield* notFound("There is no code waiting for this number. Start again.")
        }
        yield* otp.issue(mobileNo, purpose)
        return mobileNo
      })

      const login = Effect.fn("Identity.login")(function*(payload: LoginPayload, client: Client) {
        const byPhone = payload.mobile_no !== undefined
        const invalid = firstError(validateLogin({
          by: byPhone ? "phone" : "username",
          mobileNo: payload.mobile_no ?? "",
          username: payload.username ?? "",
          password: payload.password
        }))
        if (invalid) return yield* badRequest(invalid)
        const wrong = unprocessable(byPhone ? "Invalid mobile number or password" : "Invalid username or password", "InvalidCredentials")
        const ipKey = `ip:${client.ip ?? "unknown"}`
        const addressWait = yield* throttle.blockedFor(ipKey, ADDRESS_MAX_FAILURES)
        if (addressWait > 0) return yield* tooMany(`Too many failed sign-ins from your network. Try again in ${addressWait} minute${addressWait === 1 ? "" : "s"}.`)
        const mobileNo = byPhone ? normalizePhone(payload.mobile_no!) : undefined
        const user = byPhone ? (mobileNo ? yield* users.byMobile(mobileNo) : undefined) : yield* users.byUsername(payload.username!)
        if (!user) {
          yield* passwords.decoy
          yield* throttle.record(ipKey)
          return yield* wrong
        }
        const userKey = `user:${user.id}`
        const accountWait = yield* throttle.blockedFor(userKey, ACCOUNT_MAX_FAILURES)
        if (accountWait > 0) return yield* tooMany(`Too many failed attempts. Try again in ${accountWait} minute${accountWait === 1 ? "" : "s"}.`)
        if (!(yield* passwords.verify(user.passwordHash, payload.password))) {
          yield* throttle.record(userKey, ipKey)
          return yield* wrong
        }
        if (user.status === "pending") return yield* forbidden("Please verify your mobile number first: sign up again to get a new code.")
        if (user.status === "suspended") return yield* forbidden("This account is suspended. Please contact support.")
        yield* throttle.clear(userKey)
        return yield* signIn(user.id, client)
      })

      const forgotPassword = Effect.fn("Identity.forgotPassword")(function*(payload: MobilePayload) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const user = yield* users.byMobile(mobileNo)
        // The answer is the same whether or not the number is registered.
        if (user && user.status === "active") yield* otp.issue(mobileNo, "reset")
        return mobileNo
      })

      const resetPassword = Effect.fn("Identity.resetPassword")(function*(payload: ResetPasswordPayload) {
        if (payload.otp.trim() === "" || payload.password === "" || payload.confirm_password === "") return yield* badRequest(MESSAGES.fillAll)
        if (payload.password !== payload.confirm_password) return yield* badRequest(MESSAGES.newPasswordMismatch)
        yield* checkPasswordShape(payload.password)
        // The code only counts together with the number that asked for it.
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const user = yield* users.byMobile(mobileNo)
        if (!user || user.status !== "active") return yield* otpFailure("expired")
        const check = yield* otp.check(mobileNo, "reset", payload.otp.trim())
        if (check !== "ok") return yield* otpFailure(check)
        const passwordHash = yield* passwords.hash(payload.password)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now() WHERE id = ${user.id}`
          yield* sessions.revokeAll(user.id)
          yield* throttle.clear(`user:${user.id}`)
        }))
      })

      const changePassword = Effect.fn("Identity.changePassword")(function*(current: SessionUser, payload: ChangePasswordPayload, client: Client) {
        if (payload.old_password === "" || payload.password === "" || payload.confirm_password === "") return yield* badRequest(MESSAGES.fillAll)
        if (payload.password !== payload.confirm_password) return yield* badRequest(MESSAGES.newPasswordMismatch)
        yield* checkPasswordShape(payload.password)
        const user = yield* users.byId(current.id)
        if (!user) return yield* fail(401, "Your session has ended. Please log in again.")
        const userKey = `user:${user.id}`
        const wait = yield* throttle.blockedFor(userKey, ACCOUNT_MAX_FAILURES)
        if (wait > 0) return yield* tooMany(`Too many failed attempts. Try again in ${wait} minute${wait === 1 ? "" : "s"}.`)
        if (!(yield* passwords.verify(user.passwordHash, payload.old_password))) {
          yield* throttle.record(userKey)
          return yield* unprocessable("Current password is incorrect")
        }
        const passwordHash = yield* passwords.hash(payload.password)
        // Every session ends, this one too; the player carries on with the new token.
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now() WHERE id = ${user.id}`
          yield* sessions.revokeAll(user.id)
          return yield* sessions.create(user.id, client)
        }))
      })

      const logout = Effect.fn("Identity.logout")(function*(user: SessionUser) {
        yield* sessions.revoke(user.sessionId)
      })

      return Identity.of({ signUp, verifyOtp, resendOtp, login, forgotPassword, resetPassword, changePassword, logout })
    })
  )
}

