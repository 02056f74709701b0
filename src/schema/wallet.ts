import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { User, WalletCode } from "./user.ts"

/** PUT /wallet: 1 plays from the main balance, 2 from the bonus wallet. */
export const WalletPayload = Schema.Struct({ selectedWallet: WalletCode })
export type WalletPayload = typeof WalletPayload.Type

export const WALLET_CHANGED = { message: "Wallet Changed", subMessage: "Your Money, Your Way" } as const

/** The wallet switch (Authentication is added in api.ts). */
export class WalletApi extends HttpApiGroup.make("wallet")
  .add(HttpApiEndpoint.put("switchWallet", "/wallet", { payload: WalletPayload, success: Envelope(User) })
    .annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden"]))
  .middleware(Authentication)
  .prefix("/api/v1")
{}
