import { assign, fromPromise, setup } from "xstate"
import type { Bet } from "../schema/bets.ts"
import { myBets } from "./myBets.actors.ts"

/**
 * The player's open bets: all of them (My Bets modal) or one event's (the
 * right sidebar). Loaded on `bets.load`, loaded again on `bets.refresh`
 * (a bet placed or settled) while the list on screen stays.
 */
export interface BetsQuery {
  readonly eventId?: string | undefined
}

export interface MyBetsContext {
  readonly query: BetsQuery
  readonly bets: ReadonlyArray<Bet>
  readonly error: string | undefined
}

export type MyBetsEvent = { type: "bets.load"; query: BetsQuery } | { type: "bets.refresh" }

export const myBetsMachine = setup({
  types: { context: {} as MyBetsContext, events: {} as MyBetsEvent },
  actors: {
    loadBets: fromPromise<ReadonlyArray<Bet>, BetsQuery>(myBets.loadBets)
  }
}).createMachine({
  id: "myBets",
  context: { query: {}, bets: [], error: undefined },
  initial: "Idle",
  on: {
    "bets.load": { target: ".Loading", actions: assign({ query: ({ event }) => event.query, bets: [], error: undefined }) }
  },
  states: {
    Idle: {},
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadBets",
        src: "loadBets",
        input: ({ context }) => context.query,
        onDone: { target: "Ready", actions: assign({ bets: ({ event }) => event.output, error: undefined }) },
        onError: { target: "Failed", actions: assign({ error: ({ event }) => (event.error as Error).message }) }
      }
    },
    Ready: { on: { "bets.refresh": "Loading" } },
    Failed: { on: { "bets.refresh": "Loading" } }
  }
})
