import { assign, fromPromise, raise, setup } from "xstate"
import type { DayRange } from "../domain/ranges.ts"
import type { Failure } from "../schema/errors.ts"
import type { DepositRequest, Screenshot } from "../schema/payments.ts"
import { watchBalances } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { depositFormMachine } from "./depositForm.machine.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * /deposit: the deposit form with the operator's accounts (the `depositForm`
 * child), the player's requests for a date range, and the Uploaded
 * Screenshot viewer for a filed request's stored screenshot. The list loads
 * again when the form files a deposit, and whenever the player's money moves
 * (an operator approves or rejects a request).
 */
export interface DepositContext {
  readonly range: DayRange
  readonly history: ReadonlyArray<DepositRequest>
  /** Deposits the form has filed, as last seen: a new one reloads the list. */
  readonly filed: number
  /** A filed request's screenshot in the viewer: its id, and the image once it is here. */
  readonly stored: { readonly id: string; readonly image: string | undefined } | undefined
}

export type DepositEvent =
  | { type: "range.change"; range: DayRange }
  /** The requests changed (the form filed one): list them again. */
  | { type: "deposits.reload" }
  | { type: "balances.changed" }
  | { type: "stored.view"; screenshotId: string }
  | { type: "stored.close" }

export interface DepositInput {
  /** The list's first range (the last 7 India days when the page opens). */
  readonly range: DayRange
}

const depositSetup = setup({
  types: {
    context: {} as DepositContext,
    events: {} as DepositEvent | CallFailed<"loadScreenshot" | "loadHistory">,
    input: {} as DepositInput
  },
  actors: {
    depositForm: depositFormMachine,
    watchBalances,
    loadHistory: fromPromise<ReadonlyArray<DepositRequest>, DayRange>(unprovided("deposit", "loadHistory")),
    loadScreenshot: fromPromise<Screenshot, string>(unprovided("deposit", "loadScreenshot"))
  },
  actions: {
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("deposit", "toastFailure")
  },
  guards: {
    /** The form has filed more deposits than last seen. */
    filedAnother: ({ context }, params: { filed: number }) => params.filed > context.filed
  }
})

export const depositMachine = depositSetup.createMachine({
  id: "deposit",
  context: ({ input }) => ({ range: input.range, history: [], filed: 0, stored: undefined }),
  type: "parallel",
  invoke: [
    {
      id: "depositForm",
      systemId: "depositForm",
      src: "depositForm",
      onSnapshot: {
        guard: { type: "filedAnother", params: ({ event }) => ({ filed: event.snapshot.context.filed }) },
        actions: [assign({ filed: ({ event }) => event.snapshot.context.filed }), raise({ type: "deposits.reload" })]
      }
    },
    { id: "watchBalances", src: "watchBalances" }
  ],
  states: {
    History: listRegion(depositSetup, {
      on: {
        "range.change": { target: ".Loading", actions: assign({ range: ({ event }) => event.range }) },
        "deposits.reload": ".Loading",
        // The player's money moved: an operator approved or rejected a request.
        "balances.changed": ".Loading"
      },
      load: { id: "loadHistory", src: "loadHistory", input: ({ context }) => context.range },
      done: { history: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }
    }),
    /** A filed request's screenshot, as the server stored it, in the Uploaded Screenshot viewer. */
    StoredScreenshot: {
      initial: "Closed",
      on: {
        "stored.view": { target: ".Loading", actions: assign({ stored: ({ event }) => ({ id: event.screenshotId, image: undefined }) }) },
        "stored.close": { target: ".Closed", actions: assign({ stored: undefined }) }
      },
      states: {
        Closed: {},
        Loading: {
          tags: ["screenshot"],
          invoke: {
            id: "loadScreenshot",
            src: "loadScreenshot",
            input: ({ context }) => context.stored!.id,
            onDone: { target: "Showing", actions: assign({ stored: ({ context, event }) => ({ id: context.stored!.id, image: event.output.image }) }) }
          },
          on: {
            // The toast says why.
            "xstate.error.actor.loadScreenshot": { target: "Closed", actions: [assign({ stored: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
          }
        },
        Showing: { tags: ["screenshot"] }
      }
    }
  }
})
