import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { WALLET_CHANGED } from "../../src/schema/wallet.ts"
import { Users } from "../identity/Users.ts"
import { currentPlayer } from "../edge/guards.ts"
import { Wallet } from "./Wallet.ts"
import { sqlDefects } from "../edge/defects.ts"

export const WalletHandlers = HttpApiBuilder.group(Api, "wallet", Effect.fn(function*(handlers) {
  const wallet = yield* Wallet
  const users = yield* Users
  return handlers.handleAll(sqlDefects(handlers, {
    switchWallet: ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* currentPlayer
        yield* wallet.select(user.id, payload.selectedWallet)
        return ok(yield* users.view(user.id), WALLET_CHANGED.message)
      })
  }))
}))
