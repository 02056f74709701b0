import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { WalletCode } from "../../src/schema/user.ts"
import { Realtime } from "../realtime/Realtime.ts"

/** Which wallet the player plays from: 1 the main balance, 2 the bonus wallet. */
export class Wallet extends Context.Service<Wallet, {
  /** Returns whether it changed; the player's other tabs hear it over socket.io. */
  select(userId: string, wallet: WalletCode): Effect.Effect<boolean, SqlError.SqlError>
}>()("khel/Wallet") {
  static readonly layer = Layer.effect(
    Wallet,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const realtime = yield* Realtime
      const select = Effect.fn("Wallet.select")(function*(userId: string, wallet: WalletCode) {
        const rows = yield* sql`UPDATE users SET wallet = ${wallet} WHERE id = ${userId} AND wallet <> ${wallet} RETURNING id`
        if (rows.length > 0) yield* realtime.notifyUser(userId, "wallet")
        return rows.length > 0
      })
      return Wallet.of({ select })
    })
  )
}
