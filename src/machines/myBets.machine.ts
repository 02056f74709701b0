import { assign, fromPromise, setup } from "xstate"
import type { Bet } from "../schema/bets.ts"
import type { PlacedBet } from "../schema/betting.ts"
import type { Failure } from "../schema/errors.ts"
import { messageOf } from "../schema/failures.ts"
import { watchBalances, watchBets } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, unanswered, type Written } from "./writes.ts"

/**
 * The player's open bets: all of them (the My Bets modal, flow id `myBets`)
 * or one event's (the event page and the right sidebar share the flow
 * `bets.<eventId>`). Loaded when opened, loaded again on `bets.refresh` (the
 * bet slip placed a bet), whenever the player's money moves (a bet
 * settled) or the socket says their bets changed (a waiting bet matched),
 * while the list on screen stays. On an unmatched bet, Cancel cancels what of
 * it waits and a price step moves it to that price (matched there at once as
 * far as the ladder goes): one change at a time, under an Idempotency-Key kept
 * for a retry of the same change after a lost answer; the server's answer
 * shows as a toast, and the list loads again.
 */
export interface BetsQuery {
  readonly eventId?: string | undefined
}

export interface MyBetsContext {
  readonly query: BetsQuery
  readonly bets: ReadonlyArray<Bet>
  readonly error: string | undefined
  /** The change in flight (a cancel, or a move when it names a price), or the one whose answer was lost (retried with the same key). */
  readonly change: BetChange | undefined
}

export interface BetChange {
  readonly betId: string
  readonly key: string
  /** The price what waits moves to; none for a cancel. */
  readonly odds?: number | undefined
}

export type MyBetsEvent =
  | { type: "bets.refresh" }
  | { type: "balances.changed" }
  | { type: "bets.cancel"; betId: string }
  | { type: "bets.move"; betId: string; odds: number }

/** The same change again after a lost answer keeps its key; any other is a new one. */
const nextChange = (last: BetChange | undefined, betId: string, odds?: number): BetChange =>
  last?.betId === betId && last.odds === odds ? last : { betId, key: newIdempotencyKey(odds === undefined ? "cancel" : "move"), odds }

export const myBetsMachine = setup({
  types: { context: {} as MyBetsContext, events: {} as MyBetsEvent | CallFailed<"cancelBet" | "loadBets" | "moveBet">, input: {} as BetsQuery },
  actors: {
    loadBets: fromPromise<ReadonlyArray<Bet>, BetsQuery>(unprovided("myBets", "loadBets")),
    /** Cancels what waits of a bet (the server's message shows as a toast, its refusal too). */
    cancelBet: fromPromise<Written<PlacedBet>, { betId: string; key: string }>(unprovided("myBets", "cancelBet")),
    /** Moves what waits of a bet to another price (edit-bet; its message shows as a toast, its refusal too). */
    moveBet: fromPromise<Written<PlacedBet>, { betId: string; key: string; odds: number }>(unprovided("myBets", "moveBet")),
    watchBalances,
    watchBets
  },
  actions: {
    /** A change's answer: the server's message as a toast (SPEC section 7). */
    toastSuccess: unprovidedAction<{ message: string }>("myBets", "toastSuccess"),
    /** Why a change failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("myBets", "toastFailure")
  },
  guards: { unanswered }
}).createMachine({
  id: "myBets",
  context: ({ input }) => ({ query: { ...(input.eventId ? { eventId: input.eventId } : {}) }, bets: [], error: undefined, change: undefined }),
  invoke: [{ id: "watchBalances", src: "watchBalances" }, { id: "watchBets", src: "watchBets" }],
  initial: "Loading",
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadBets",
        src: "loadBets",
        input: ({ context }) => context.query,
        onDone: { target: "Ready", actions: assign({ bets: ({ event }) => event.output, error: undefined }) }
      },
      on: { "xstate.error.actor.loadBets": { target: "Failed", actions: assign({ error: ({ event }) => messageOf(event.error) }) } }
    },
    Ready: {
      on: {
        "bets.refresh": "Loading",
        "balances.changed": "Loading",
        "bets.cancel": { target: "Cancelling", actions: assign({ change: ({ context, event }) => nextChange(context.change, event.betId) }) },
        "bets.move": { target: "Moving", actions: assign({ change: ({ context, event }) => nextChange(context.change, event.betId, event.odds) }) }
      }
    },
    Failed: { tags: ["failed"], on: { "bets.refresh": "Loading", "balances.changed": "Loading" } },
    Cancelling: {
      tags: ["busy"],
      invoke: {
        id: "cancelBet",
        src: "cancelBet",
        input: ({ context }) => context.change!,
        onDone: { target: "Loading", actions: [assign({ change: undefined }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }] }
      },
      on: {
        "xstate.error.actor.cancelBet": [
          { guard: "unanswered", target: "Loading", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } },
          { target: "Loading", actions: [assign({ change: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
        ]
      }
    },
    Moving: {
      tags: ["busy"],
      invoke: {
        id: "moveBet",
        src: "moveBet",
        input: ({ context }) => ({ betId: context.change!.betId, key: context.change!.key, odds: context.change!.odds! }),
        onDone: { target: "Loading", actions: [assign({ change: undefined }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }] }
      },
      on: {
        "xstate.error.actor.moveBet": [
          { guard: "unanswered", target: "Loading", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } },
          { target: "Loading", actions: [assign({ change: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
        ]
      }
    }
  }
})
