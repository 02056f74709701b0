import { assign, fromPromise, sendParent, setup } from "xstate"
import type { Failure } from "../schema/errors.ts"
import type { User, WalletCode } from "../schema/user.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * The wallet switch (SPEC section 4): 1 plays from the main balance, 2 from
 * the bonus wallet. Choosing the other wallet asks the server; on success the
 * local wallet follows and 'Wallet Changed' shows. Choosing the active wallet
 * does nothing: no call, no toast. `wallet.sync` keeps it in step with the
 * user data (another tab, a claimed bonus that moved the player back to 1).
 * The session runs it while the player is signed in (system id `wallet`).
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
    events: {} as WalletEvent | CallFailed<"switchWallet">,
    input: {} as { wallet: WalletCode }
  },
  actors: {
    /** PUT /wallet; a refusal shows the server's message as a warning toast. */
    switchWallet: fromPromise<User, { wallet: WalletCode }>(unprovided("wallet", "switchWallet"))
  },
  actions: {
    /** 'Wallet Changed' with 'Your Money, Your Way' (SPEC section 8). */
    notifyChanged: unprovidedAction("wallet", "notifyChanged"),
    /** A refusal shows the server's message as a warning toast (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("wallet", "toastFailure"),
    /** The session (its parent) reloads the user: balances shown for the new wallet. */
    userChanged: sendParent({ type: "user.changed" })
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
            "userChanged"
          ]
        }
      },
      on: {
        // The toast shows the server's message; the wallet stays as it was.
        "xstate.error.actor.switchWallet": { target: "Idle", actions: [assign({ target: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
      }
    }
  }
})
