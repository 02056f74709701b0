import { Effect } from "effect"
import { SessionApi } from "../schema/identity.ts"
import type { WalletCode } from "../schema/user.ts"
import { WALLET_CHANGED, WalletApi } from "../schema/wallet.ts"
import { noticeStore } from "../services/noticeStore.ts"
import { Api } from "../services/api.ts"
import { forgetSubscription } from "../services/webPush.ts"
import { data, runTask } from "./bridge.ts"

export { toastFailure } from "./bridge.ts"
import { logoutPayload, switchWalletPayload } from "./requests.ts"

/**
 * The session's writing calls, on the Effect runtime: this chunk (and the
 * runtime) loads with the first of them, never on the first page
 * (src/root/session.ts).
 */

/** The server ends the session (and its push subscriptions); this browser drops its subscription too. */
export const logout = (request: { userId: string | undefined }, signal: AbortSignal) =>
  runTask(
    Api.use((api) => api.call(SessionApi.endpoints.logout, { payload: logoutPayload(request) })).pipe(
      Effect.asVoid,
      // A session the server already ended is still logged out here.
      Effect.catch(() => Effect.void),
      Effect.andThen(Effect.promise(() => forgetSubscription().catch(() => {})))
    ),
    signal
  )

/** The wallet switch's call; the machine shows a refusal's message as a warning toast. */
export const switchWallet = (request: { wallet: WalletCode }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(WalletApi.endpoints.switchWallet, { payload: switchWalletPayload(request) }))), signal)

/** 'Wallet Changed' after a switch (SPEC section 4). */
export const notifyWalletChanged = () => noticeStore.show("success", WALLET_CHANGED.message, WALLET_CHANGED.subMessage)
