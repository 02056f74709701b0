import { Console, Effect } from "effect"
import { type AdminCommand, registerCommand, UsageError } from "../admin/registry.ts"
import { DEMO_STAFF } from "../seed/demoStaff.ts"
import { codeAt } from "./secondFactor.ts"

/** The code a demo staff member's authenticator app would show now (their secrets are printed in README). */
const totp: AdminCommand = {
  name: "totp",
  usage: "<director|admin>",
  description: "Prints the desk sign-in code of a demo staff member (their TOTP secret is in README), for trying /admin without an authenticator app.",
  run: (args) =>
    Effect.suspend(() => {
      const member = DEMO_STAFF.find((staff) => staff.username === args[0])
      if (!member?.totpSecret) throw new UsageError(`Demo staff with a second factor: ${DEMO_STAFF.filter((s) => s.totpSecret).map((s) => s.username).join(", ")}.`)
      const now = Date.now()
      return Console.log(`${codeAt(member.totpSecret, now)} (valid for ${30 - Math.floor((now / 1000) % 30)} more seconds)`)
    })
}

registerCommand(totp)
