import { Effect } from "effect"
import { CasinoPlayApi } from "../schema/casino.ts"
import type { CasinoBetsQuery } from "../schema/casino.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"

/**
 * The call behind the casinoBets machine, until it joins the composition
 * root with the money pages (the lobby's calls are in src/root/flows/casino.ts).
 */
export const casinoActors = {
  loadBets: ({ input, signal }: { input: CasinoBetsQuery; signal: AbortSignal }) =>
    run(
      Effect.map(
        Api.use((api) => api.call(CasinoPlayApi.endpoints.casinoBetsByDate, { query: input }, { notify: "none" })),
        (envelope) => envelope.data
      ),
      signal
    )
}
