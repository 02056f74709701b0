import { assign, fromPromise, setup } from "xstate"
import type { Bet } from "../schema/bets.ts"
import { messageOf } from "../schema/failures.ts"
import { watchBalances } from "./balances.ts"
import { unprovided } from "./unprovided.ts"

/**
 * The player's open bets: all of them (the My Bets modal, flow id `myBets`)
 * or one event's (the event page and the right sidebar share the flow
 * `bets.<eventId>`). Loaded when opened, loaded again on `bets.refresh` (the
 * bet slip placed a bet) and whenever the player's money moves (a bet
 * settled), while the list on screen stays.
 */
export interface BetsQuery {
  readonly eventId?: string | undefined
}

export interface MyBetsContext {
  readonly query: BetsQuery
  readonly bets: ReadonlyArray<Bet>
  readonly error: string | undefined
}

export type MyBetsEvent = { type: "bets.refresh" } | { type: "balances.changed" }

export const myBetsMachine = setup({
  types: { context: {} as MyBetsContext, events: {} as MyBetsEvent, input: {} as BetsQuery },
  actors: {
    loadBets: fromPromise<ReadonlyArray<Bet>, BetsQuery>(unprovided("myBets", "loadBets")),
    watchBalances
  }
}).createMachine({
  id: "myBets",
  context: ({ input }) => ({ query: { ...(input.eventId ? { eventId: input.eventId } : {}) }, bets: [], error: undefined }),
  invoke: { id: "watchBalances", src: "watchBalances" },
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
    Ready: { on: { "bets.refresh": "Loading", "balances.changed": "Loading" } },
    Failed: { on: { "bets.refresh": "Loading", "balances.changed": "Loading" } }
  }
})
