import { Console, Effect, Schema } from "effect"
import { SignalKind } from "../../src/schema/integrity.ts"
import { type AdminCommand, registerCommand, UsageError } from "../admin/registry.ts"
import { Users } from "../identity/Users.ts"
import { Signals } from "./Signals.ts"

const flag = (args: ReadonlyArray<string>, name: string) => {
  const index = args.indexOf(`--${name}`)
  return index === -1 ? undefined : args[index + 1]
}

export const signals: AdminCommand = {
  name: "signals",
  usage: "[--kind duplicate_utr|near_duplicate_utr|shared_payout_account|shared_device|shared_address] [--player <username>]",
  description: "Lists integrity signals, newest first (100): reused payment references, payout accounts, devices and addresses shared between players.",
  run: (args) =>
    Effect.gen(function*() {
      const kind = flag(args, "kind")
      if (kind !== undefined && !Schema.is(SignalKind)(kind)) throw new UsageError(`--kind must be one of ${SignalKind.literals.join(", ")}`)
      const username = flag(args, "player")
      const player = username === undefined ? undefined : yield* Users.use((users) => users.byUsername(username.toLowerCase()))
      if (username !== undefined && !player) throw new UsageError(`There is no player ${username}.`)
      const page = yield* Signals.use((s) => s.list({ kind, userId: player?.id }))
      if (page.signals.length === 0) return yield* Console.log("(none)")
      yield* Console.table(page.signals.map((s) => ({
        at: s.createdAt,
        kind: s.kind,
        players: s.players.map((p) => p.username).join(", "),
        subject: s.subject,
        detail: s.detail
      })))
    })
}

registerCommand(signals)
