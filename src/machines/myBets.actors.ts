import { Effect } from "effect"
import { BettingApi } from "../schema/betting.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"
import type { BetsQuery } from "./myBets.machine.ts"

const betting = BettingApi

/** The real programs behind My Bets. */
export const myBets = {
  loadBets: ({ input, signal }: { input: BetsQuery; signal: AbortSignal }) =>
    run(
      Effect.map(
        Api.use((api) => api.call(betting.endpoints.betsByMarket, { query: input.eventId ? { eventId: input.eventId } : {} }, { notify: "none" })),
        (envelope) => envelope.data
      ),
      signal
    )
}
