import { assign, fromPromise, setup } from "xstate"
import type { Bet } from "../schema/bets.ts"
import type { PlacedBet } from "../schema/betting.ts"
import { messageOf } from "../schema/failures.ts"
import { watchBalances, watchBets } from "./balances.ts"
import { unprovided } from "./unprovided.ts"
import { newIdempotencyKey, unanswered } from "./writes.ts"

/**
 * The player's open bets: all of them (the My Bets modal, flow id `myBets`)
 * or one event's (the event page and the right sidebar share the flow
 * `bets.<eventId>`). Loaded when opened, loaded again on `bets.refresh` (the
 * bet slip placed a bet), whenever the player's money moves (a bet
 * settled) or the socket says their bets changed (a waiting bet matched),
 * while the list on screen stays. Cancel on an unmatched bet cancels what of
 * it waits (one at a time, under an Idempotency-Key kept for a retry after a
 * lost answer); the server's answer shows as a toast, and the list loads again.
 */
export interface BetsQuery {
  readonly eventId?: string | undefined
}

export interface MyBetsContext {
  readonly query: BetsQuery
  readonly bets: ReadonlyArray<Bet>
  readonly error: string | undefined
  /** The cancel in flight, or the one whose answer was lost (retried with the same key). */
  readonly cancel: { readonly betId: string; readonly key: string } | undefined
}

export type MyBetsEvent = { type: "bets.refresh" } | { type: "balances.changed" } | { type: "bets.cancel"; betId: string }

export const myBetsMachine = setup({
  types: { context: {} as MyBetsContext, events: {} as MyBetsEvent, input: {} as BetsQuery },
  actors: {
    loadBets: fromPromise<ReadonlyArray<Bet>, BetsQuery>(unprovided("myBets", "loadBets")),
    /** Cancels what waits of a bet (the server's message shows as a toast, its refusal too). */
    cancelBet: fromPromise<PlacedBet, { betId: string; key: string }>(unprovided("myBets", "cancelBet")),
    watchBalances,
    watchBets
  },
  guards: { unanswered }
}).createMachine({
  id: "myBets",
  context: ({ input }) => ({ query: { ...(input.eventId ? { eventId: input.eventId } : {}) }, bets: [], error: undefined, cancel: undefined }),
  invoke: [{ id: "watchBalances", src: "watchBalances" }, { id: "watchBets", src: "watchBets" }],
  initial: "Loading",
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadBets",
        src: "loadBets",
        input: ({ context }) => context.query,
        onDone: { target: "Ready", actions: assign({ bets: ({ event }) => event.output, error: undefined }) },
        onError: { target: "Failed", actions: assign({ error: ({ event }) => messageOf(event.error) }) }
      }
    },
    Ready: {
      on: {
        "bets.refresh": "Loading",
        "balances.changed": "Loading",
        "bets.cancel": {
          target: "Cancelling",
          // The same bet again after a lost answer is the same cancel: its key.
          actions: assign({ cancel: ({ context, event }) => (context.cancel?.betId === event.betId ? context.cancel : { betId: event.betId, key: newIdempotencyKey("cancel") }) })
        }
      }
    },
    Failed: { on: { "bets.refresh": "Loading", "balances.changed": "Loading" } },
    Cancelling: {
      tags: ["busy"],
      invoke: {
        id: "cancelBet",
        src: "cancelBet",
        input: ({ context }) => context.cancel!,
        onDone: { target: "Loading", actions: assign({ cancel: undefined }) },
        onError: [
          { guard: "unanswered", target: "Loading" },
          { target: "Loading", actions: assign({ cancel: undefined }) }
        ]
      }
    }
  }
})
