import { assign, fromPromise, setup } from "xstate"
import type { CasinoBet, CasinoBetsQuery } from "../schema/casino.ts"
import { casinoActors } from "./casino.actors.ts"

/**
 * The player's casino rounds of one day and provider (casino-bets-by-date).
 * Each query replaces the last; leaving Loading aborts the request.
 */
export interface CasinoBetsContext {
  readonly query: CasinoBetsQuery
  readonly bets: ReadonlyArray<CasinoBet>
  readonly error: string | undefined
}

export type CasinoBetsEvent = { type: "bets.query"; query: CasinoBetsQuery }

export const casinoBetsMachine = setup({
  types: {
    context: {} as CasinoBetsContext,
    events: {} as CasinoBetsEvent,
    input: {} as { query: CasinoBetsQuery }
  },
  actors: {
    loadBets: fromPromise<ReadonlyArray<CasinoBet>, CasinoBetsQuery>(casinoActors.loadBets)
  }
}).createMachine({
  id: "casinoBets",
  context: ({ input }) => ({ query: input.query, bets: [], error: undefined }),
  initial: "Loading",
  on: {
    "bets.query": { target: ".Loading", actions: assign({ query: ({ event }) => event.query }) }
  },
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadBets",
        src: "loadBets",
        input: ({ context }) => context.query,
        onDone: { target: "Ready", actions: assign({ bets: ({ event }) => event.output, error: undefined }) },
        onError: { target: "Failed", actions: assign({ bets: [], error: ({ event }) => (event.error as Error).message }) }
      }
    },
    Ready: {},
    Failed: {}
  }
})
