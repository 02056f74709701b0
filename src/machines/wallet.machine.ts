import { assign, fromPromise, setup } from "xstate"
import type { User, WalletCode } from "../schema/user.ts"
import { walletPrograms } from "./wallet.actors.ts"

/**
 * The wallet switch (SPEC section 4): 1 plays from the main balance, 2 from
 * the bonus wallet. Choosing the other wallet asks the server; on success the
 * local wallet follows and 'Wallet Changed' shows. Choosing the active wallet
 * does nothing: no call, no toast. `wallet.sync` keeps it in step with the
 * user data (another tab, a claimed bonus that moved the player back to 1).
 */
export interface WalletContext {
  readonly wallet: WalletCode
  /** Where a switch in flight is going. */
  readonly target: WalletCode | undefined
}

export type WalletEvent =
  | { type: "wallet.switch"; wallet: WalletCode }
  | { type: "wallet.sync"; wallet: WalletCode }

export const walletMachine = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
    input: {} as { wallet: WalletCode }
  },
  actors: {
    switchWallet: fromPromise<User, { wallet: WalletCode }>(walletPrograms.switchWallet)
  },
  actions: {
    notifyChanged: walletPrograms.notifyChanged,
    /** The session reloads the user (balances shown for the new wallet). */
    userChanged: (_, _params: { user: User }) => {}
  },
  guards: {
    isOtherWallet: ({ context, event }) => event.type === "wallet.switch" && event.wallet !== context.wallet
  }
}).createMachine({
  id: "wallet",
  context: ({ input }) => ({ wallet: input.wallet, target: undefined }),
  initial: "Idle",
  states: {
    Idle: {
      on: {
        "wallet.switch": { guard: "isOtherWallet", target: "Switching", actions: assign({ target: ({ event }) => event.wallet }) },
        "wallet.sync": { actions: assign({ wallet: ({ event }) => event.wallet }) }
      }
    },
    Switching: {
      tags: ["busy"],
      invoke: {
        id: "switchWallet",
        src: "switchWallet",
        input: ({ context }) => ({ wallet: context.target! }),
        onDone: {
          target: "Idle",
          actions: [
            assign({ wallet: ({ event }) => event.output.wallet, target: undefined }),
            "notifyChanged",
            { type: "userChanged", params: ({ event }) => ({ user: event.output }) }
          ]
        },
        // The Api service already showed the server's message; the wallet stays as it was.
        onError: { target: "Idle", actions: assign({ target: undefined }) }
      }
    }
  }
})
