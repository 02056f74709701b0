import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { User } from "./user.ts"
import { Schema } from "effect"
import { MESSAGES } from "../domain/validation.ts"
import { Region } from "./region.ts"

const Password = Schema.String.check(Schema.isMaxLength(128))
const MobileNo = Schema.String.check(Schema.isMaxLength(20))

/** Only one of `username` and `mobile_no` is sent, depending on the sign-in tab. */
export const LoginPayload = Schema.Struct({
  username: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  mobile_no: Schema.optionalKey(MobileNo),
  password: Password
})
export type LoginPayload = typeof LoginPayload.Type

export const SignUpPayload = Schema.Struct({
  name: Schema.String.check(Schema.isMaxLength(80)),
  mobile_no: MobileNo,
  password: Password,
  confirmPassword: Password,
  affiliateCode: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(32))),
  /** The player ticked "I am 18 or older and accept the terms"; the server records when. */
  ageConfirmed: Schema.Boolean.pipe(
    Schema.refine((ticked): ticked is true => ticked === true, { message: MESSAGES.ageRequired }),
    Schema.annotateKey({ messageMissingKey: MESSAGES.ageRequired })
  ),
  /** Where the player lives; operators may not serve every state. */
  region: Region.pipe(Schema.annotateKey({ messageMissingKey: MESSAGES.regionRequired }))
})
export type SignUpPayload = typeof SignUpPayload.Type

export const VerifyOtpPayload = Schema.Struct({ mobile_no: MobileNo, otp: Schema.String.check(Schema.isMaxLength(8)) })
export type VerifyOtpPayload = typeof VerifyOtpPayload.Type

/** Resend-otp, and the first step of forgot-password. */
export const MobilePayload = Schema.Struct({ mobile_no: MobileNo })
export type MobilePayload = typeof MobilePayload.Type

/**
 * The reset step of forgot-password. `mobile_no` ties the code to the phone that
 * asked for it: a bare four-digit code never identifies an account by itself.
 */
export const ResetPasswordPayload = Schema.Struct({
  mobile_no: Schema.optionalKey(MobileNo),
  otp: Schema.String.check(Schema.isMaxLength(8)),
  password: Password,
  confirm_password: Password
})
export type ResetPasswordPayload = typeof ResetPasswordPayload.Type

/** forgot-password takes either step on the same path. */
export const ForgotPasswordPayload = Schema.Union([ResetPasswordPayload, MobilePayload])
export type ForgotPasswordPayload = typeof ForgotPasswordPayload.Type

export const ChangePasswordPayload = Schema.Struct({
  old_password: Password,
  password: Password,
  confirm_password: Password
})
export type ChangePasswordPayload = typeof ChangePasswordPayload.Type

export const LogoutPayload = Schema.Struct({ user_id: Schema.optionalKey(Schema.String) })
export type LogoutPayload = typeof LogoutPayload.Type

/** Where a code was sent, in E.164 (the client keeps it for the OTP step). */
export const OtpSent = Schema.Struct({ mobile_no: Schema.String })

/** Visitors: sign-up, OTP, sign-in and password reset. */
export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.post("signUp", "/sign-up", { payload: SignUpPayload, success: Envelope(OtpSent) })
      .annotate(Reasons, ["InvalidInput", "WeakPassword", "Conflict", "Refused", "RateLimited", "CodesBlocked", "RegionBlocked"]),
    HttpApiEndpoint.post("verifyOtp", "/verify-otp", { payload: VerifyOtpPayload, success: Envelope(User) })
      .annotate(Reasons, ["InvalidInput", "Refused", "RateLimited", "CodesBlocked"]),
    HttpApiEndpoint.post("resendOtp", "/resend-otp", { payload: MobilePayload, success: Envelope(OtpSent) })
      .annotate(Reasons, ["InvalidInput", "NotFound", "RateLimited", "CodesBlocked"]),
    HttpApiEndpoint.post("login", "/login", { payload: LoginPayload, success: Envelope(User) })
      .annotate(Reasons, ["InvalidInput", "InvalidCredentials", "Forbidden", "RateLimited"]),
    HttpApiEndpoint.post("forgotPassword", "/forgot-password", { payload: ForgotPasswordPayload, success: Envelope(Schema.NullOr(OtpSent)) })
      .annotate(Reasons, ["InvalidInput", "WeakPassword", "Refused", "RateLimited", "CodesBlocked"])
  )
  .prefix("/identity/user")
{}

/** Signed-in players: their session and password. */
export class SessionApi extends HttpApiGroup.make("session")
  .add(
    HttpApiEndpoint.post("changePassword", "/change-password", { payload: ChangePasswordPayload, success: Envelope(Schema.Null) })
      .annotate(Reasons, ["InvalidInput", "WeakPassword", "SessionEnded", "Refused", "RateLimited"]),
    HttpApiEndpoint.post("logout", "/logout", { payload: LogoutPayload, success: Envelope(Schema.Null) })
  )
  .middleware(Authentication)
  .prefix("/identity/user")
{}

export class UserApi extends HttpApiGroup.make("user")
  .add(HttpApiEndpoint.get("getUserData", "/getUserData", { success: Envelope(User) }))
  .middleware(Authentication)
  .prefix("/api/v1")
{}
