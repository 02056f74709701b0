import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { INVALID_PHONE, normalizePhone, NOT_US_NUMBER } from "../../src/domain/phone.ts"
import { isStaffRole } from "../../src/domain/staff.ts"
import { isUsGeographic } from "../../src/domain/usNumbers.ts"
import { cleanName } from "../../src/domain/text.ts"
import {
  MESSAGES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_TOO_SHORT,
  validateLogin,
  validateSignUp
} from "../../src/domain/validation.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
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
import { Push } from "../push/Push.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { codesBlocked, Otp, otpFailure } from "./Otp.ts"
import { Passwords, WEAK_PASSWORD } from "./Passwords.ts"
import { type SessionUser, Sessions } from "./Sessions.ts"
import { Throttle } from "./Throttle.ts"
import { Users } from "./Users.ts"

export interface Client {
  readonly ip?: string | undefined
  readonly userAgent?: string | undefined
  /** The visitor cookie's id (server/edge/visitors.ts): the browser, when it loaded one of our pages. */
  readonly device?: string | undefined
}

export interface SignedIn {
  readonly token: string
  readonly user: User
}

type Failure = ApiError | SqlError.SqlError

const firstError = (errors: Partial<Record<string, string>>) => Object.values(errors).find((message) => message !== undefined)

const phoneOf = (input: string | undefined) =>
  Effect.gen(function*() {
    if (input === undefined || input.trim() === "") return yield* refuse("InvalidInput", MESSAGES.mobileRequired)
    const phone = normalizePhone(input)
    if (!phone) return yield* refuse("InvalidInput", INVALID_PHONE)
    // Codes go to US area codes only among +1 numbers: premium-rate and other countries' routes are SMS pumping's.
    if (phone.startsWith("+1") && !isUsGeographic(phone)) return yield* refuse("InvalidInput", NOT_US_NUMBER)
    return phone
  })

const checkPasswordShape = (password: string) =>
  password.length < PASSWORD_MIN
    ? refuse("InvalidInput", PASSWORD_TOO_SHORT)
    : password.length > PASSWORD_MAX
    ? refuse("InvalidInput", `Password must be at most ${PASSWORD_MAX} characters`)
    : Effect.void

/** The address limits count a request by (the edge has resolved it behind trusted proxies). */
const addressOf = (client: Client) => client.ip ?? "unknown"

/**
 * Visitors becoming players and players' sessions: sign-up with an OTP,
 * sign-in by phone or username with throttling, password reset and change,
 * logout. Every failure is an `ApiError` the player can read.
 */
export class Identity extends Context.Service<Identity, {
  signUp(payload: SignUpPayload, client: Client): Effect.Effect<string, Failure>
  verifyOtp(payload: VerifyOtpPayload, client: Client): Effect.Effect<SignedIn, Failure>
  resendOtp(payload: MobilePayload, client: Client): Effect.Effect<string, Failure>
  login(payload: LoginPayload, client: Client): Effect.Effect<SignedIn, Failure>
  forgotPassword(payload: MobilePayload, client: Client): Effect.Effect<string, Failure>
  resetPassword(payload: ResetPasswordPayload, client: Client): Effect.Effect<void, Failure>
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
      const realtime = yield* Realtime
      const push = yield* Push

      /** A new password must not be a common one, nor made of the account's own name or number. */
      const checkPasswordStrength = (password: string, accountWords: ReadonlyArray<string>) =>
        Effect.flatMap(passwords.isWeak(password, accountWords), (weak) => (weak ? refuse("WeakPassword", WEAK_PASSWORD) : Effect.void))

      /**
       * Ends sessions (and with them their game sessions and push subscriptions); their sockets are disconnected
       * once that is committed.
       */
      const endSessions = (revoked: Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>) =>
        Effect.flatMap(revoked, (ids) => Effect.andThen(push.forgetSessions(ids), sql.afterCommit(realtime.endSessions(ids))))
      const protection = yield* Protection

      const signIn = (userId: string, client: Client) =>
        Effect.gen(function*() {
          const token = yield* sessions.create(userId, client)
          return { token, user: yield* users.view(userId) }
        })

      const signUp = Effect.fn("Identity.signUp")(function*(payload: SignUpPayload, client: Client) {
        const name = cleanName(payload.name)
        const invalid = firstError(validateSignUp({
          name,
          mobileNo: payload.mobile_no,
          password: payload.password,
          confirmPassword: payload.confirmPassword,
          ageConfirmed: payload.ageConfirmed,
          region: payload.region
        }))
        if (invalid) return yield* refuse("InvalidInput", invalid)
        yield* checkPasswordShape(payload.password)
        const mobileNo = yield* phoneOf(payload.mobile_no)
        yield* checkPasswordStrength(payload.password, [name, ...name.split(" "), mobileNo, mobileNo.slice(-10)])
        const code = payload.affiliateCode?.trim()
        const referrer = code ? yield* users.byReferralCode(code) : undefined
        if (code && !referrer) return yield* refuse("Refused", "This referral code is not valid. Check it, or leave it empty.")
        const existing = yield* users.byMobile(mobileNo)
        if (existing && existing.status !== "pending") return yield* refuse("Conflict", "This mobile number is already registered. Please log in.")
        const blocked = yield* otp.blockedFor(mobileNo, "signup")
        if (blocked > 0) return yield* codesBlocked("signup", blocked)
        const passwordHash = yield* passwords.hash(payload.password)
        yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* users.byMobile(mobileNo)
          if (current && current.status !== "pending") {
            return yield* refuse("Conflict", "This mobile number is already registered. Please log in.")
          }
          let userId: string
          if (current) {
            // Signing up again before verifying: keep the account, take the new details.
            yield* sql`
              UPDATE users SET name = ${name}, password_hash = ${passwordHash}, referred_by = ${referrer?.id ?? null}
               WHERE id = ${current.id}
            `
            userId = current.id
          } else {
            userId = (yield* users.create({ name, mobileNo, passwordHash, role: Roles.PLAYER, status: "pending", referredBy: referrer?.id ?? null })).id
          }
          // The declared state and the age confirmation, with when; the operator's default limits.
          yield* protection.signedUp(userId, payload.region, { id: userId, ip: client.ip })
          yield* otp.issue(mobileNo, "signup", client)
        }))
        return mobileNo
      })

      const verifyOtp = Effect.fn("Identity.verifyOtp")(function*(payload: VerifyOtpPayload, client: Client) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        if (!/^\d{4}$/.test(payload.otp)) return yield* refuse("InvalidInput", MESSAGES.otpRequired)
        const user = yield* users.byMobile(mobileNo)
        if (!user || user.status !== "pending") return yield* otpFailure("expired")
        const check = yield* otp.check(mobileNo, "signup", payload.otp)
        if (check === "blocked") return yield* codesBlocked("signup", yield* otp.blockedFor(mobileNo, "signup"))
        if (check !== "ok") return yield* otpFailure(check)
        yield* sql`UPDATE users SET status = 'active' WHERE id = ${user.id} AND status = 'pending'`
        return yield* signIn(user.id, client)
      })

      const resendOtp = Effect.fn("Identity.resendOtp")(function*(payload: MobilePayload, client: Client) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const user = yield* users.byMobile(mobileNo)
        const purpose = (yield* otp.pending(mobileNo)) ?? (user?.status === "pending" ? "signup" : undefined)
        // A reset code is resent like forgot-password sends it: the same for every number.
        if (purpose === "reset") return yield* forgotPassword(payload, client)
        if (!user || purpose !== "signup" || user.status !== "pending") {
          return yield* refuse("NotFound", "There is no code waiting for this number. Start again.")
        }
        const blocked = yield* otp.blockedFor(mobileNo, "signup")
        if (blocked > 0) return yield* codesBlocked("signup", blocked)
        yield* otp.issue(mobileNo, purpose, client)
        return mobileNo
      })

      /**
       * One path for every sign-in, whether or not the account exists: the
       * same throttle (keyed by the account, or by what was typed when there
       * is none), the same argon2 verification (against a decoy hash when
       * there is no account) and the same answer for a wrong password.
       */
      const login = Effect.fn("Identity.login")(function*(payload: LoginPayload, client: Client) {
        const byPhone = payload.mobile_no !== undefined
        const invalid = firstError(validateLogin({
          by: byPhone ? "phone" : "username",
          mobileNo: payload.mobile_no ?? "",
          username: payload.username ?? "",
          password: payload.password
        }))
        if (invalid) return yield* refuse("InvalidInput", invalid)
        const wrong = refuse("InvalidCredentials", byPhone ? "Invalid mobile number or password" : "Invalid username or password")
        const typed = byPhone ? normalizePhone(payload.mobile_no!) ?? payload.mobile_no!.trim() : payload.username!.trim().toLowerCase()
        const user = byPhone ? yield* users.byMobile(typed) : yield* users.byUsername(typed)
        const address = addressOf(client)
        const account = user ? `user:${user.id}` : `typed:${typed}`
        yield* throttle.check(address, account)
        const matches = yield* passwords.verify(user?.passwordHash, payload.password)
        if (!user || !matches) {
          yield* throttle.failed(address, account)
          return yield* wrong
        }
        if (user.status === "pending") return yield* refuse("Forbidden", "Please verify your mobile number first: sign up again to get a new code.")
        if (user.status === "suspended") return yield* refuse("Forbidden", "This account is suspended. Please contact support.")
        // Staff sign in on the desk, with their second factor: never on the player site.
        if (isStaffRole(user.role)) return yield* refuse("Forbidden", "Staff accounts sign in on the desk at /admin.")
        yield* throttle.succeeded(address, account)
        return yield* signIn(user.id, client)
      })

      /**
       * The phone step answers every number alike, in what it says and in
       * how long it takes: the same limits count, and a code is stored
       * either way; only a registered, active number gets it by SMS, after
       * the answer has gone.
       */
      const forgotPassword = Effect.fn("Identity.forgotPassword")(function*(payload: MobilePayload, client: Client) {
        const mobileNo = yield* phoneOf(payload.mobile_no)
        const blocked = yield* otp.blockedFor(mobileNo, "reset")
        if (blocked > 0) return yield* codesBlocked("reset", blocked)
        const user = yield* users.byMobile(mobileNo)
        yield* otp.issue(mobileNo, "reset", client, { deliver: user?.status === "active" })
        return mobileNo
      })

      const resetPassword = Effect.fn("Identity.resetPassword")(function*(payload: ResetPasswordPayload, client: Client) {
        if (payload.otp.trim() === "" || payload.password === "" || payload.confirm_password === "") return yield* refuse("InvalidInput", MESSAGES.fillAll)
        if (payload.password !== payload.confirm_password) return yield* refuse("InvalidInput", MESSAGES.newPasswordMismatch)
        yield* checkPasswordShape(payload.password)
        // The code only counts together with the number that asked for it.
        const mobileNo = yield* phoneOf(payload.mobile_no)
        // Judged on what every number has alike (not the account's name), before the code is spent.
        yield* checkPasswordStrength(payload.password, [mobileNo, mobileNo.slice(-10)])
        // Every number has a code after the phone step (one nobody receives when it is not registered): checked alike.
        const check = yield* otp.check(mobileNo, "reset", payload.otp.trim())
        if (check === "blocked") return yield* codesBlocked("reset", yield* otp.blockedFor(mobileNo, "reset"))
        const user = yield* users.byMobile(mobileNo)
        if (check !== "ok") return yield* otpFailure(check)
        if (!user || user.status !== "active") return yield* otpFailure("wrong")
        const passwordHash = yield* passwords.hash(payload.password)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now() WHERE id = ${user.id}`
          yield* endSessions(sessions.revokeAll(user.id))
        }))
        // Whoever proved the number may sign in from here at once, whatever this address tried before.
        yield* throttle.succeeded(addressOf(client), `user:${user.id}`)
      })

      const changePassword = Effect.fn("Identity.changePassword")(function*(current: SessionUser, payload: ChangePasswordPayload, client: Client) {
        if (payload.old_password === "" || payload.password === "" || payload.confirm_password === "") return yield* refuse("InvalidInput", MESSAGES.fillAll)
        if (payload.password !== payload.confirm_password) return yield* refuse("InvalidInput", MESSAGES.newPasswordMismatch)
        yield* checkPasswordShape(payload.password)
        const user = yield* users.byId(current.id)
        if (!user) return yield* refuse("SessionEnded", "Your session has ended. Please log in again.")
        const address = addressOf(client)
        const account = `user:${user.id}`
        yield* throttle.check(address, account)
        if (!(yield* passwords.verify(user.passwordHash, payload.old_password))) {
          yield* throttle.failed(address, account)
          return yield* refuse("Refused", "Current password is incorrect")
        }
        yield* checkPasswordStrength(payload.password, [user.name, ...user.name.split(" "), user.username, user.mobileNo, user.mobileNo.slice(-10)])
        const passwordHash = yield* passwords.hash(payload.password)
        // Every session ends, this one too; the player carries on with the new token.
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now() WHERE id = ${user.id}`
          yield* endSessions(sessions.revokeAll(user.id))
          return yield* sessions.create(user.id, client)
        }))
      })

      const logout = Effect.fn("Identity.logout")(function*(user: SessionUser) {
        yield* endSessions(sessions.revoke(user.sessionId))
      })

      return Identity.of({ signUp, verifyOtp, resendOtp, login, forgotPassword, resetPassword, changePassword, logout })
    })
  )
}

