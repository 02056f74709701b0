import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Roles } from "../../src/schema/user.ts"
import { Passwords } from "../identity/Passwords.ts"
import { Users } from "../identity/Users.ts"
import { Ledger } from "../ledger/Ledger.ts"
import type { Seeder } from "./demo.ts"
import { DEMO_STAFF } from "./demoStaff.ts"

/** The demo players README lists (the staff are below). */
export const DEMO_ACCOUNTS = [
  { name: "Demo Player", username: "demo", mobileNo: "+919000000001", password: "Demo@1234", role: Roles.PLAYER, deposit: 10_000_00, credit: 0 },
  { name: "Credit Player", username: "credit", mobileNo: "+919000000002", password: "Credit@1234", role: Roles.CREDIT_PLAYER, deposit: 0, credit: 50_000_00 }
] as const


export const accounts: Seeder = {
  name: "accounts",
  run: () =>
    Effect.gen(function*() {
      const users = yield* Users
      const passwords = yield* Passwords
      const ledger = yield* Ledger
      for (const account of DEMO_ACCOUNTS) {
        const user = yield* users.create({
          name: account.name,
          username: account.username,
          mobileNo: account.mobileNo,
          passwordHash: yield* passwords.hash(account.password),
          role: account.role,
          status: "active",
          creditReference: account.credit
        })
        if (account.deposit > 0) {
          yield* ledger.post({
            kind: "deposit",
            userId: user.id,
            reference: "demo-seed",
            description: "Demo opening balance",
            legs: [
              { account: { operator: "deposits" }, amount: -account.deposit },
              { account: { user: user.id, kind: "main" }, amount: account.deposit }
            ]
          })
        }
      }
    })
}

/** The desk's staff: `admin` (made with the players) gets its second factor, `director` and `support` are added. */
export const staff: Seeder = {
  name: "staff",
  run: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const users = yield* Users
      const passwords = yield* Passwords
      for (const member of DEMO_STAFF) {
        const existing = yield* users.byUsername(member.username)
        const user = existing ?? (yield* users.create({
          name: member.name,
          username: member.username,
          mobileNo: member.mobileNo,
          passwordHash: yield* passwords.hash(member.password),
          role: member.role,
          status: "active"
        }))
        if (member.totpSecret) {
          yield* sql`
            INSERT INTO staff_second_factors (user_id, secret, confirmed_at) VALUES (${user.id}, ${member.totpSecret}, now())
            ON CONFLICT (user_id) DO NOTHING
          `
        }
      }
    })
}
