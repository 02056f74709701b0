import { assign, fromPromise, setup } from "xstate"
import { messageOf } from "../schema/failures.ts"
import type { CasinoBet, CasinoBetsQuery } from "../schema/casino.ts"
import { watchBalances } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided } from "./unprovided.ts"

/**
 * The player's casino rounds of one day and provider (casino-bets-by-date),
 * under a lobby. Each query replaces the last (leaving Loading aborts the
 * request); the list loads again when the player's money moves (a round
 * settled, in another tab or a provider's window).
 */
export interface CasinoBetsContext {
  readonly query: CasinoBetsQuery
  readonly bets: ReadonlyArray<CasinoBet>
  /** Why the last load failed, for the player. */
  readonly error: string | undefined
}

export type CasinoBetsEvent =
  | { type: "bets.query"; query: CasinoBetsQuery }
  | { type: "balances.changed" }

export interface CasinoBetsInput {
  /** The first query: today (India), all providers or the lobby's own. */
  readonly query: CasinoBetsQuery
}

const casinoBetsSetup = setup({
  types: {
    context: {} as CasinoBetsContext,
    events: {} as CasinoBetsEvent | CallFailed<"loadBets">,
    input: {} as CasinoBetsInput
  },
  actors: {
    watchBalances,
    loadBets: fromPromise<ReadonlyArray<CasinoBet>, CasinoBetsQuery>(unprovided("casinoBets", "loadBets"))
  }
})

export const casinoBetsMachine = casinoBetsSetup.createMachine({
  id: "casinoBets",
  context: ({ input }) => ({ query: input.query, bets: [], error: undefined }),
  invoke: { id: "watchBalances", src: "watchBalances" },
  ...listRegion(casinoBetsSetup, {
    on: {
      "bets.query": { target: ".Loading", actions: assign({ query: ({ event }) => event.query }) },
      "balances.changed": ".Loading"
    },
    load: { id: "loadBets", src: "loadBets", input: ({ context }) => context.query },
    done: { bets: ({ event }) => event.output, error: undefined },
    fail: assign({ bets: [], error: ({ event }) => messageOf(event.error, "Your casino bets could not be loaded.") })
  })
})
