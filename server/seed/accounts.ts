import { Effect } from "effect"
import { Roles } from "../../src/schema/user.ts"
import { Passwords } from "../identity/Passwords.ts"
import { Users } from "../identity/Users.ts"
import { Ledger } from "../ledger/Ledger.ts"
import type { Seeder } from "./demo.ts"

/** The demo accounts README lists. */
export const DEMO_ACCOUNTS = [
  { name: "Demo Player", username: "demo", mobileNo: "+919000000001", password: "Demo@1234", role: Roles.PLAYER, deposit: 10_000_00, credit: 0 },
  { name: "Credit Player", username: "credit", mobileNo: "+919000000002", password: "Credit@1234", role: Roles.CREDIT_PLAYER, deposit: 0, credit: 50_000_00 },
  { name: "Khel Admin", username: "admin", mobileNo: "+919000000003", password: "Admin@1234", role: Roles.ADMIN, deposit: 0, credit: 0 }
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
