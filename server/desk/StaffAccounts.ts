/** Staff accounts: their row (read here and by Staff.ts), the password rules they share, and the DIRECTOR's management of them. */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { INVALID_PHONE, normalizePhone } from "../../src/domain/phone.ts"
import { isStaffRole, type StaffRole } from "../../src/domain/staff.ts"
import { cleanName } from "../../src/domain/text.ts"
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_TOO_SHORT } from "../../src/domain/validation.ts"
import type { CreateStaffPayload, StaffAccount, UpdateStaffPayload } from "../../src/schema/desk/staff.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Role } from "../../src/schema/user.ts"
import { decodeRows } from "../db/rows.ts"
import { Passwords, WEAK_PASSWORD } from "../identity/Passwords.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Users } from "../identity/Users.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Actor, Audit } from "./Audit.ts"

export const StaffRow = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.String,
  mobileNo: Schema.String,
  role: Role,
  status: Schema.Literals(["pending", "active", "suspended"]),
  createdAt: Schema.Date,
  secret: Schema.NullOr(Schema.String),
  pendingSecret: Schema.NullOr(Schema.String),
  lastSignInAt: Schema.NullOr(Schema.Date)
})
export type StaffRow = typeof StaffRow.Type

/** An account's row by id or username (of any role: see `staffRowOf`). */
export const rowOf = (sql: SqlClient.SqlClient, where: { readonly id: string } | { readonly username: string }) => {
  const id = "id" in where ? where.id : null
  const username = "username" in where ? where.username.trim().toLowerCase() : null
  return sql`
    SELECT u.id, u.username, u.name, u.mobile_no, u.role, u.status, u.created_at, f.secret, f.pending_secret,
           (SELECT max(created_at) FROM sessions s WHERE s.user_id = u.id AND s.scope = 'desk') AS last_sign_in_at
      FROM users u LEFT JOIN staff_second_factors f ON f.user_id = u.id
     WHERE (${id}::text IS NULL OR u.id = ${id}) AND (${username}::text IS NULL OR u.username = ${username})
  `.pipe(decodeRows(StaffRow), Effect.map((rows) => rows[0]))
}

/** The staff member's row; NotFound when there is none, or the account is not staff. */
export const staffRowOf = (sql: SqlClient.SqlClient, id: string) =>
  Effect.flatMap(rowOf(sql, { id }), (row) => (row && isStaffRole(row.role) ? Effect.succeed({ ...row, role: row.role }) : refuse("NotFound", "There is no such staff member.")))

/** A new password for a staff account: its length, and not weak (nor made of `words`, the account's own). */
export const checkStaffPassword = (passwords: Passwords["Service"], password: string, words: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    if (password.length < PASSWORD_MIN) return yield* refuse("InvalidInput", PASSWORD_TOO_SHORT)
    if (password.length > PASSWORD_MAX) return yield* refuse("InvalidInput", `Password must be at most ${PASSWORD_MAX} characters`)
    if (yield* passwords.isWeak(password, words)) return yield* refuse("WeakPassword", WEAK_PASSWORD)
  })

/** Ends sessions; their sockets are disconnected once that is committed. */
export const endSessionsOnCommit = (sql: SqlClient.SqlClient, realtime: Realtime["Service"]) => (ids: ReadonlyArray<string>) =>
  sql.afterCommit(realtime.endSessions(ids))

const accountOf = (row: StaffRow & { role: StaffRole }): StaffAccount => ({
  id: row.id,
  username: row.username,
  name: row.name,
  mobileNo: row.mobileNo,
  role: row.role,
  status: row.status === "suspended" ? "suspended" : "active",
  secondFactor: row.secret !== null,
  createdAt: row.createdAt.toISOString(),
  lastSignInAt: row.lastSignInAt?.toISOString() ?? null
})

/** A username staff sign in with: 3 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter. */
const USERNAME = /^[a-z][a-z0-9._-]{2,31}$/

type Failure = ApiError | SqlError.SqlError

/** The DIRECTOR's management of staff accounts: the list, a new account, a change of role, status or second factor. Every change is audited. */
export class StaffAccounts extends Context.Service<StaffAccounts, {
  list: Effect.Effect<ReadonlyArray<StaffAccount>, SqlError.SqlError>
  create(actor: Actor, payload: CreateStaffPayload): Effect.Effect<StaffAccount, Failure>
  update(actor: Actor, id: string, payload: UpdateStaffPayload): Effect.Effect<StaffAccount, Failure>
}>()("khel/StaffAccounts") {
  static readonly layer = Layer.effect(
    StaffAccounts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sessions = yield* Sessions
      const users = yield* Users
      const passwords = yield* Passwords
      const audit = yield* Audit
      const endSessions = endSessionsOnCommit(sql, yield* Realtime)
      const staffRow = (id: string) => staffRowOf(sql, id)

      const list = Effect.gen(function*() {
        const rows = yield* sql`
          SELECT u.id, u.username, u.name, u.mobile_no, u.role, u.status, u.created_at, f.secret, f.pending_secret,
                 (SELECT max(created_at) FROM sessions s WHERE s.user_id = u.id AND s.scope = 'desk') AS last_sign_in_at
            FROM users u LEFT JOIN staff_second_factors f ON f.user_id = u.id
           WHERE u.role IN (1, 2, 101)
           ORDER BY u.role, u.username
        `.pipe(decodeRows(StaffRow))
        return rows.flatMap((row) => (isStaffRole(row.role) ? [accountOf({ ...row, role: row.role })] : []))
      }).pipe(Effect.withSpan("Staff.list"))

      const create = Effect.fn("Staff.create")(function*(actor: Actor, payload: CreateStaffPayload) {
        const username = payload.username.trim().toLowerCase()
        const name = cleanName(payload.name)
        if (name === "") return yield* refuse("InvalidInput", "Name is required")
        if (!USERNAME.test(username)) return yield* refuse("InvalidInput", "A username is 3 to 32 lower-case letters, digits, dots, dashes or underscores, starting with a letter.")
        const mobileNo = normalizePhone(payload.mobileNo)
        if (!mobileNo) return yield* refuse("InvalidInput", INVALID_PHONE)
        yield* checkStaffPassword(passwords, payload.password, [name, ...name.split(" "), username, mobileNo.slice(-10)])
        if (yield* users.byUsername(username)) return yield* refuse("Conflict", "This username is taken.")
        if (yield* users.byMobile(mobileNo)) return yield* refuse("Conflict", "This mobile number belongs to another account.")
        const passwordHash = yield* passwords.hash(payload.password)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const user = yield* users.create({ name, username, mobileNo, passwordHash, role: payload.role, status: "active" })
          const account = accountOf({ ...(yield* staffRow(user.id)) })
          yield* audit.record(actor, { action: "staff.create", subject: { kind: "staff", id: user.id }, after: account })
          return account
        }))
      })

      const update = Effect.fn("Staff.update")(function*(actor: Actor, id: string, payload: UpdateStaffPayload) {
        if (actor.kind === "staff" && actor.id === id && (payload.role !== undefined || payload.status === "suspended")) {
          return yield* refuse("Refused", "You cannot change your own role or suspend yourself: ask another director.")
        }
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = accountOf(yield* staffRow(id))
          if (payload.role !== undefined) yield* sql`UPDATE users SET role = ${payload.role} WHERE id = ${id}`
          if (payload.status !== undefined) yield* sql`UPDATE users SET status = ${payload.status} WHERE id = ${id}`
          if (payload.resetSecondFactor) yield* sql`DELETE FROM staff_second_factors WHERE user_id = ${id}`
          // A new role or a suspension takes effect at once: the account signs in again (or not at all).
          if (payload.role !== undefined || payload.status === "suspended" || payload.resetSecondFactor) {
            yield* endSessions(yield* sessions.revokeAll(id))
          }
          const after = accountOf(yield* staffRow(id))
          yield* audit.record(actor, { action: "staff.update", subject: { kind: "staff", id }, before, after })
          return after
        }))
      })

      return StaffAccounts.of({ list, create, update })
    })
  )
}
