import { Effect } from "effect"
import { WalletApi } from "../schema/wallet.ts"
import type { User, WalletCode } from "../schema/user.ts"
import { WALLET_CHANGED } from "../schema/wallet.ts"
import { Api } from "../services/api.ts"
import { Notices } from "../services/notices.ts"
import { run } from "../services/runtime.ts"

const wallet = WalletApi

/** The real programs behind the wallet machine. */
export const walletPrograms = {
  /** PUT /wallet; failures show the server's message as a warning toast. */
  switchWallet: ({ input, signal }: { input: { wallet: WalletCode }; signal: AbortSignal }): Promise<User> =>
    run(
      Effect.map(Api.use((api) => api.call(wallet.endpoints.switchWallet, { payload: { selectedWallet: input.wallet } }, { notify: "failure" })), (envelope) => envelope.data),
      signal
    ),
  /** 'Wallet Changed' with 'Your Money, Your Way' (SPEC section 8). */
  notifyChanged: () => void run(Notices.use((notices) => notices.success(WALLET_CHANGED.message, WALLET_CHANGED.subMessage)))
}
