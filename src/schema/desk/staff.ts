import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { Id, Instant, Permission, StaffRole, Text } from "./common.ts"

/** The signed-in staff member, with what their role may do (the desk shows only that). */
export const StaffMember = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.String,
  role: StaffRole,
  permissions: Schema.Array(Permission),
  /** Whether a second factor (TOTP) protects the account. */
  secondFactor: Schema.Boolean
})
export type StaffMember = typeof StaffMember.Type

export const SignInPayload = Schema.Struct({
  username: Text(64),
  password: Text(200),
  /** The 6 digits of the authenticator app, once asked for. */
  code: Schema.optionalKey(Text(12))
})
export type SignInPayload = typeof SignInPayload.Type

/** A TOTP secret to enrol: the app scans the QR (or takes the secret typed in), then a first code confirms it. */
export const Enrolment = Schema.Struct({
  secret: Schema.String,
  /** The otpauth:// URI the QR holds. */
  uri: Schema.String,
  /** The QR as a PNG data URL. */
  qr: Schema.String
})
export type Enrolment = typeof Enrolment.Type

/**
 * What a sign-in answers: signed in (the token in `meta.token`), a code is
 * needed (sign in again with it), or the account must enrol a second factor
 * first (scan it, then sign in again with a code from it).
 */
export const SignInAnswer = Schema.Union([
  Schema.Struct({ step: Schema.Literal("signedIn"), staff: StaffMember }),
  Schema.Struct({ step: Schema.Literal("code") }),
  Schema.Struct({ step: Schema.Literal("enrol"), enrolment: Enrolment })
])
export type SignInAnswer = typeof SignInAnswer.Type

/** One of the staff member's own desk sessions. */
export const DeskSession = Schema.Struct({
  id: Schema.String,
  createdAt: Instant,
  lastSeenAt: Instant,
  expiresAt: Instant,
  ip: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String),
  /** The session this request came with. */
  current: Schema.Boolean
})
export type DeskSession = typeof DeskSession.Type

export const CodePayload = Schema.Struct({ code: Text(12) })

export const PasswordPayload = Schema.Struct({ old_password: Text(200), password: Text(200), confirm_password: Text(200) })
export type PasswordPayload = typeof PasswordPayload.Type

/** A staff account, as the DIRECTOR manages them. */
export const StaffAccount = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.String,
  mobileNo: Schema.String,
  role: StaffRole,
  status: Schema.Literals(["active", "suspended"]),
  secondFactor: Schema.Boolean,
  createdAt: Instant,
  lastSignInAt: Schema.NullOr(Instant)
})
export type StaffAccount = typeof StaffAccount.Type

export const CreateStaffPayload = Schema.Struct({
  name: Text(80),
  username: Text(32),
  mobileNo: Text(20),
  role: StaffRole,
  password: Text(200)
})
export type CreateStaffPayload = typeof CreateStaffPayload.Type

/** A change to a staff account: another role, suspended or active again, or the second factor reset (enrolled again at the next sign-in). */
export const UpdateStaffPayload = Schema.Struct({
  role: Schema.optionalKey(StaffRole),
  status: Schema.optionalKey(Schema.Literals(["active", "suspended"])),
  resetSecondFactor: Schema.optionalKey(Schema.Boolean)
})
export type UpdateStaffPayload = typeof UpdateStaffPayload.Type

/** Signing in on the desk (no session yet). */
export class DeskSignInApi extends HttpApiGroup.make("deskSignIn")
  .add(
    HttpApiEndpoint.post("signIn", "/sign-in", { payload: SignInPayload, success: Envelope(SignInAnswer) })
      .annotate(Reasons, ["InvalidInput", "InvalidCredentials", "Forbidden", "RateLimited"])
  )
  .prefix("/api/v1/desk")
{}

/** The staff member's own account: who they are, their sessions, their second factor, their password. */
export class DeskAccountApi extends HttpApiGroup.make("deskAccount")
  .add(
    HttpApiEndpoint.get("me", "/me", { success: Envelope(StaffMember) }).annotate(Requires, "staff"),
    HttpApiEndpoint.post("signOut", "/sign-out", { success: Envelope(Schema.Null) }).annotate(Requires, "staff"),
    HttpApiEndpoint.get("sessions", "/sessions", { success: Envelope(Schema.Array(DeskSession)) }).annotate(Requires, "staff"),
    HttpApiEndpoint.delete("endSession", "/sessions/:id", { params: Id, success: Envelope(Schema.Null) }).annotate(Requires, "staff"),
    HttpApiEndpoint.post("enrol", "/second-factor", { success: Envelope(Enrolment) }).annotate(Requires, "staff"),
    HttpApiEndpoint.put("confirmSecondFactor", "/second-factor", { payload: CodePayload, success: Envelope(StaffMember) })
      .annotate(Requires, "staff").annotate(Reasons, ["InvalidInput", "InvalidCredentials", "NotFound"]),
    HttpApiEndpoint.put("changePassword", "/password", { payload: PasswordPayload, success: Envelope(Schema.Null) })
      .annotate(Requires, "staff").annotate(Reasons, ["InvalidInput", "InvalidCredentials", "WeakPassword", "RateLimited"])
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}

/** Staff accounts (DIRECTOR). */
export class DeskStaffApi extends HttpApiGroup.make("deskStaff")
  .add(
    HttpApiEndpoint.get("list", "/staff", { success: Envelope(Schema.Array(StaffAccount)) }).annotate(Requires, "staff.manage"),
    HttpApiEndpoint.post("create", "/staff", { payload: CreateStaffPayload, success: Envelope(StaffAccount) })
      .annotate(Requires, "staff.manage").annotate(Reasons, ["InvalidInput", "Conflict", "WeakPassword"]),
    HttpApiEndpoint.put("update", "/staff/:id", { params: Id, payload: UpdateStaffPayload, success: Envelope(StaffAccount) })
      .annotate(Requires, "staff.manage").annotate(Reasons, ["InvalidInput", "NotFound", "Refused"])
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
