import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { randomInt } from "node:crypto"
import { toRupees } from "../../src/domain/money.ts"
import { Role, Roles, type User, WalletCode } from "../../src/schema/user.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { Ledger } from "../ledger/Ledger.ts"

/** A user as stored (`SELECT *`: columns not named here are left out). */
export const UserRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  username: Schema.String,
  mobileNo: Schema.String,
  passwordHash: Schema.String,
  role: Role,
  wallet: WalletCode,
  creditReference: Paise,
  referralCode: Schema.String,
  referredBy: Schema.NullOr(Schema.String),
  status: Schema.Literals(["pending", "active", "suspended"])
})
export type UserRow = typeof UserRow.Type

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
const referralCode = () => Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("")

/** "Ravi Kumar" -> "ravi" + four digits; letters only, so it never looks like a phone number. */
const usernameBase = (name: string) =>
  name.normalize("NFKD").toLowerCase().replace(/[^a-z]/g, " ").trim().split(/\s+/)[0]?.slice(0, 12) || "player"

export class Users extends Context.Service<Users, {
  byId(id: string): Effect.Effect<UserRow | undefined, SqlError.SqlError>
  byUsername(username: string): Effect.Effect<UserRow | undefined, SqlError.SqlError>
  byMobile(mobileNo: string): Effect.Effect<UserRow | undefined, SqlError.SqlError>
  byReferralCode(code: string): Effect.Effect<UserRow | undefined, SqlError.SqlError>
  create(input: {
    name: string
    mobileNo: string
    passwordHash: string
    role: Role
    status: UserRow["status"]
    referredBy?: string | null
    username?: string
    creditReference?: number
  }): Effect.Effect<UserRow, SqlError.SqlError>
  /** The player as the API shows them: balances from the ledger, in rupees. */
  view(id: string): Effect.Effect<User, SqlError.SqlError>
}>()("khel/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger

      const one = (rows: ReadonlyArray<UserRow>) => rows[0]

      const byId = (id: string) => sql`SELECT * FROM users WHERE id = ${id}`.pipe(decodeRows(UserRow), Effect.map(one))
      const byUsername = (username: string) =>
        sql`SELECT * FROM users WHERE username = ${username.trim().toLowerCase()}`.pipe(decodeRows(UserRow), Effect.map(one))
      const byMobile = (mobileNo: string) => sql`SELECT * FROM users WHERE mobile_no = ${mobileNo}`.pipe(decodeRows(UserRow), Effect.map(one))
      const byReferralCode = (code: string) =>
        // Only players who verified their number refer others (an unverified sign-up is removed after a while).
        sql`SELECT * FROM users WHERE referral_code = ${code.trim().toUpperCase()} AND status <> 'pending'`.pipe(decodeRows(UserRow), Effect.map(one))

      const create = Effect.fn("Users.create")(function*(input: Parameters<Users["Service"]["create"]>[0]) {
        const base = input.username ?? usernameBase(input.name)
        for (let attempt = 0; ; attempt++) {
          const username = input.username && attempt === 0 ? input.username : `${base}${randomInt(1000, 10_000)}`
          const code = referralCode()
          const rows = yield* sql`
            INSERT INTO users (name, username, mobile_no, password_hash, role, status, referred_by, referral_code, credit_reference)
            VALUES (${input.name.trim()}, ${username}, ${input.mobileNo}, ${input.passwordHash}, ${input.role}, ${input.status},
                    ${input.referredBy ?? null}, ${code}, ${input.creditReference ?? 0})
            ON CONFLICT DO NOTHING
            RETURNING *
          `.pipe(decodeRows(UserRow))
          if (rows[0]) {
            yield* ledger.openAccounts(rows[0].id, input.role === Roles.CREDIT_PLAYER ? input.creditReference ?? 0 : 0)
            return rows[0]
          }
          // A username or referral code was taken (or the phone number, which callers check first): try new ones.
          if (attempt > 20) return yield* Effect.die(new Error("could not allocate a username"))
        }
      })

      const view = Effect.fn("Users.view")(function*(id: string) {
        const row = yield* byId(id)
        if (!row) return yield* Effect.die(new Error(`no user ${id}`))
        const b = yield* ledger.balances(id)
        // Events with open bets, for the event pages' "My Bets" markers.
        const events = (yield* sql`SELECT DISTINCT event_id FROM bets WHERE user_id = ${id} AND status = 'open'`.pipe(decodeRows(Schema.Struct({ eventId: Schema.String })))).map((row) => row.eventId)
        const credit = Number(row.creditReference)
        const held = b.exposure + b.bonusExposure
        // Balance counts what is held for open bets; the client shows balance + exposure, i.e. what can still be staked.
        const balance = row.role === Roles.CREDIT_PLAYER ? credit + b.main + held : b.main + held
        return {
          id: row.id,
          name: row.name,
          username: row.username,
          mobileNo: row.mobileNo,
          role: row.role,
          wallet: row.wallet,
          balance: toRupees(balance),
          exposure: held === 0 ? 0 : -toRupees(held),
          bonus: toRupees(b.bonus),
          refBonus: toRupees(b.refBonus),
          creditReference: toRupees(credit),
          referralCode: row.referralCode,
          bets: events.map((eventId) => ({ eventId: { _id: eventId } }))
        } satisfies User
      })

      return Users.of({ byId, byUsername, byMobile, byReferralCode, create, view })
    })
  )
}
