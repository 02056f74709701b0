/** Staff on the desk: signing in, their desk sessions, their own password and second factor (accounts: StaffAccounts.ts). */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { isStaffRole, permissionsOf, secondFactorRequired, type StaffRole } from "../../src/domain/staff.ts"
import type { DeskSession, Enrolment, PasswordPayload, SignInAnswer, SignInPayload, StaffMember } from "../../src/schema/desk/staff.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows } from "../db/rows.ts"
import type { Client } from "../identity/Identity.ts"
import { Passwords } from "../identity/Passwords.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Throttle } from "../identity/Throttle.ts"
import { Users } from "../identity/Users.ts"
import { qrDataUrl } from "../payments/qr.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Actor, Audit } from "./Audit.ts"
import { checkStaffPassword, endSessionsOnCommit, rowOf, type StaffRow, staffRowOf } from "./StaffAccounts.ts"
import { enrolmentUri, newSecret, stepOf } from "./secondFactor.ts"

type Failure = ApiError | SqlError.SqlError

/** The staff member behind a desk session, as the middleware found them. */
export interface SignedInStaff {
  readonly id: string
  readonly username: string
  readonly role: StaffRole
  readonly sessionId: string
  readonly ip: string | undefined
}

/** The audit's actor of a signed-in staff member. */
export const staffActorOf = (staff: SignedInStaff) => ({ kind: "staff" as const, id: staff.id, username: staff.username, role: staff.role, ip: staff.ip })

export const actorOf = (staff: SignedInStaff): Actor => staffActorOf(staff)

const SessionRow = Schema.Struct({
  id: Schema.String,
  createdAt: Schema.Date,
  lastSeenAt: Schema.Date,
  expiresAt: Schema.Date,
  ip: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String)
})
const Ended = Schema.Struct({ id: Schema.String })
const Step = Schema.Struct({ lastStep: Schema.String })

const WRONG_PASSWORD = "Invalid username or password"
const WRONG_CODE = "That code is not right. Type the 6 digits your authenticator app shows now."

const memberOf = (row: StaffRow & { role: StaffRole }, secondFactor = row.secret !== null): StaffMember => ({
  id: row.id,
  username: row.username,
  name: row.name,
  role: row.role,
  permissions: permissionsOf(row.role),
  secondFactor
})

const enrolmentOf = (secret: string, username: string): Effect.Effect<Enrolment> =>
  Effect.promise(async () => {
    const uri = enrolmentUri(secret, username)
    return { secret, uri, qr: await qrDataUrl(uri) }
  })

/**
 * Staff on the desk: signing in (password, then the TOTP code where the role
 * needs one, enrolling it on the first sign-in), their desk sessions, their
 * own password and second factor. Every change is audited. The DIRECTOR's
 * management of staff accounts is StaffAccounts.ts.
 */
export class Staff extends Context.Service<Staff, {
  /** A sign-in: the answer, and the new session's token once signed in. */
  signIn(payload: SignInPayload, client: Client): Effect.Effect<{ readonly answer: SignInAnswer; readonly token?: string }, Failure>
  /** The staff member of a desk session that has not ended; undefined otherwise (or when the account is not staff any more). */
  authenticate(token: string): Effect.Effect<Omit<SignedInStaff, "ip"> | undefined, SqlError.SqlError>
  me(staff: SignedInStaff): Effect.Effect<StaffMember, Failure>
  signOut(staff: SignedInStaff): Effect.Effect<void, SqlError.SqlError>
  sessions(staff: SignedInStaff): Effect.Effect<ReadonlyArray<DeskSession>, SqlError.SqlError>
  endSession(staff: SignedInStaff, sessionId: string): Effect.Effect<void, Failure>
  enrol(staff: SignedInStaff): Effect.Effect<Enrolment, Failure>
  confirmSecondFactor(staff: SignedInStaff, code: string): Effect.Effect<StaffMember, Failure>
  changePassword(staff: SignedInStaff, payload: PasswordPayload): Effect.Effect<void, Failure>
}>()("khel/Staff") {
  static readonly layer = Layer.effect(
    Staff,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* Sessions
      const users = yield* Users
      const passwords = yield* Passwords
      const throttle = yield* Throttle
      const audit = yield* Audit
      const endSessions = endSessionsOnCommit(sql, yield* Realtime)
      const staffRow = (id: string) => staffRowOf(sql, id)

      /**
       * Accepts a code for `secret` once: the step it belongs to must be later than the last one accepted for the
       * account (a conditional update, so two sign-ins racing with one code cannot both pass).
       */
      const acceptCode = (userId: string, secret: string, code: string) =>
        Effect.gen(function*() {
          const step = stepOf(secret, code, Date.now())
          if (step === undefined) return false
          const rows = yield* sql`
            UPDATE staff_second_factors SET last_step = ${step} WHERE user_id = ${userId} AND last_step < ${step} RETURNING last_step::text
          `.pipe(decodeRows(Step))
          return rows.length > 0
        })

      const pendingSecret = (row: StaffRow) =>
        Effect.gen(function*() {
          if (row.pendingSecret) return row.pendingSecret
          const secret = newSecret()
          yield* sql`
            INSERT INTO staff_second_factors (user_id, pending_secret) VALUES (${row.id}, ${secret})
            ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret
          `
          return secret
        })

      const confirm = (userId: string) =>
        sql`
          UPDATE staff_second_factors SET secret = pending_secret, pending_secret = NULL, confirmed_at = now()
           WHERE user_id = ${userId} AND pending_secret IS NOT NULL
        `

      const signIn = Effect.fn("Staff.signIn")(function*(payload: SignInPayload, client: Client) {
        const typed = payload.username.trim().toLowerCase()
        if (typed === "") return yield* refuse("InvalidInput", "Username is required")
        if (payload.password === "") return yield* refuse("InvalidInput", "Password is required")
        const row = yield* rowOf(sql, { username: typed })
        const address = client.ip ?? "unknown"
        const account = row ? `user:${row.id}` : `typed:${typed}`
        yield* throttle.check(address, account)
        // The same argon2 work whether or not the account exists (a decoy hash when it does not).
        const hash = row ? (yield* users.byId(row.id))?.passwordHash : undefined
        if (!row || !(yield* passwords.verify(hash, payload.password))) {
          yield* throttle.failed(address, account)
          return yield* refuse("InvalidCredentials", WRONG_PASSWORD)
        }
        if (!isStaffRole(row.role)) return yield* refuse("Forbidden", "This account cannot sign in to the desk.")
        if (row.status !== "active") return yield* refuse("Forbidden", "This staff account is suspended. Ask a director.")
        const role = row.role
        const code = payload.code?.trim() ?? ""
        const usesFactor = row.secret !== null || secondFactorRequired(role)
        if (usesFactor) {
          const secret = row.secret ?? (yield* pendingSecret(row))
          if (code === "") {
            yield* throttle.succeeded(address, account)
            return { answer: row.secret !== null ? { step: "code" as const } : { step: "enrol" as const, enrolment: yield* enrolmentOf(secret, row.username) } }
          }
          if (!(yield* acceptCode(row.id, secret, code))) {
            yield* throttle.failed(address, account)
            return yield* refuse("InvalidCredentials", WRONG_CODE)
          }
          if (row.secret === null) yield* confirm(row.id)
        }
        yield* throttle.succeeded(address, account)
        const actor: Actor = { kind: "staff", id: row.id, username: row.username, role, ip: client.ip }
        const token = yield* sql.withTransaction(Effect.gen(function*() {
          const token = yield* sessions.create(row.id, client, "desk")
          yield* audit.record(actor, { action: row.secret === null && usesFactor ? "staff.sign-in.enrolled" : "staff.sign-in", subject: { kind: "staff", id: row.id } })
          return token
        }))
        return { answer: { step: "signedIn" as const, staff: memberOf({ ...row, role }, usesFactor) }, token }
      })

      const authenticate = Effect.fn("Staff.authenticate")(function*(token: string) {
        const session = yield* sessions.authenticate(token, "desk")
        if (!session || !isStaffRole(session.role)) return undefined
        const [row] = yield* sql`SELECT username FROM users WHERE id = ${session.id}`.pipe(decodeRows(Schema.Struct({ username: Schema.String })))
        return row ? { id: session.id, username: row.username, role: session.role, sessionId: session.sessionId } : undefined
      })

      const me = Effect.fn("Staff.me")(function*(staff: SignedInStaff) {
        return memberOf(yield* staffRow(staff.id))
      })


      const signOut = Effect.fn("Staff.signOut")(function*(staff: SignedInStaff) {
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* endSessions(yield* sessions.revoke(staff.sessionId))
          yield* audit.record(actorOf(staff), { action: "staff.sign-out", subject: { kind: "staff", id: staff.id } })
        }))
      })

      const ownSessions = Effect.fn("Staff.sessions")(function*(staff: SignedInStaff) {
        const rows = yield* sql`
          SELECT id, created_at, last_seen_at, expires_at, ip, user_agent FROM sessions
           WHERE user_id = ${staff.id} AND scope = 'desk' AND revoked_at IS NULL AND expires_at > now()
             AND last_seen_at > now() - interval '30 minutes'
           ORDER BY created_at DESC
        `.pipe(decodeRows(SessionRow))
        return rows.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          ip: row.ip,
          userAgent: row.userAgent,
          current: row.id === staff.sessionId
        }))
      })

      const endSession = Effect.fn("Staff.endSession")(function*(staff: SignedInStaff, sessionId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          // Only one's own desk sessions.
          const ended = yield* sql`
            UPDATE sessions SET revoked_at = now() WHERE id = ${sessionId} AND user_id = ${staff.id} AND scope = 'desk' AND revoked_at IS NULL RETURNING id
          `.pipe(decodeRows(Ended))
          if (ended.length === 0) return yield* refuse("NotFound", "There is no such session of yours.")
          yield* endSessions(ended.map((row) => row.id))
          yield* audit.record(actorOf(staff), { action: "staff.session.end", subject: { kind: "session", id: sessionId } })
        }))
      })

      const enrol = Effect.fn("Staff.enrol")(function*(staff: SignedInStaff) {
        const row = yield* staffRow(staff.id)
        const secret = newSecret()
        yield* sql`
          INSERT INTO staff_second_factors (user_id, pending_secret) VALUES (${row.id}, ${secret})
          ON CONFLICT (user_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret
        `
        return yield* enrolmentOf(secret, row.username)
      })

      const confirmSecondFactor = Effect.fn("Staff.confirmSecondFactor")(function*(staff: SignedInStaff, code: string) {
        const row = yield* staffRow(staff.id)
        if (!row.pendingSecret) return yield* refuse("NotFound", "Start the set-up again: there is no new code to confirm.")
        if (!(yield* acceptCode(row.id, row.pendingSecret, code))) return yield* refuse("InvalidCredentials", WRONG_CODE)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* confirm(row.id)
          yield* audit.record(actorOf(staff), { action: "staff.second-factor.enrol", subject: { kind: "staff", id: row.id }, before: { secondFactor: row.secret !== null }, after: { secondFactor: true } })
        }))
        return memberOf(row, true)
      })

      const changePassword = Effect.fn("Staff.changePassword")(function*(staff: SignedInStaff, payload: PasswordPayload) {
        if (payload.password !== payload.confirm_password) return yield* refuse("InvalidInput", "New password and Confirm password mismatch")
        const user = yield* users.byId(staff.id)
        if (!user) return yield* refuse("NotFound", "There is no such staff member.")
        const address = staff.ip ?? "unknown"
        const account = `user:${user.id}`
        yield* throttle.check(address, account)
        if (!(yield* passwords.verify(user.passwordHash, payload.old_password))) {
          yield* throttle.failed(address, account)
          return yield* refuse("InvalidCredentials", "Current password is incorrect")
        }
        yield* checkStaffPassword(passwords, payload.password, [user.name, ...user.name.split(" "), user.username, user.mobileNo.slice(-10)])
        const hash = yield* passwords.hash(payload.password)
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE users SET password_hash = ${hash}, password_changed_at = now() WHERE id = ${user.id}`
          // Every other session ends; this one goes on.
          const ended = yield* sql`
            UPDATE sessions SET revoked_at = now() WHERE user_id = ${user.id} AND id <> ${staff.sessionId} AND revoked_at IS NULL RETURNING id
          `.pipe(decodeRows(Ended))
          yield* endSessions(ended.map((row) => row.id))
          yield* audit.record(actorOf(staff), { action: "staff.password.change", subject: { kind: "staff", id: user.id } })
        }))
      })

      return Staff.of({ signIn, authenticate, me, signOut, sessions: ownSessions, endSession, enrol, confirmSecondFactor, changePassword })
    })
  )
}
