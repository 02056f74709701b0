import { Effect } from "effect"
import { launchIdOf, type Lobby } from "../domain/casino.ts"
import { CasinoApi, CasinoPlayApi } from "../schema/casino.ts"
import type { CasinoGame } from "../schema/casino.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"

const casino = CasinoApi
const casinoPlay = CasinoPlayApi

/** The real programs behind the casino machines. */
export const casinoActors = {
  loadGames: ({ input, signal }: { input: { lobby: Lobby }; signal: AbortSignal }) =>
    run(
      Effect.map(
        Api.use((api) =>
          input.lobby === "sa"
            ? api.call(casino.endpoints.saCasinoGames, {}, { notify: "none" })
            : api.call(casino.endpoints.casinoGames, { query: input.lobby === "slots" ? { slots: "true" } : {} }, { notify: "none" })
        ),
        (envelope) => envelope.data
      ),
      signal
    ),

  /** The URL to open ("" when the game is not available); a refusal shows the server's message as a warning. */
  launchGame: ({ input, signal }: { input: { lobby: Lobby; game: CasinoGame }; signal: AbortSignal }) =>
    run(
      Effect.map(
        Api.use((api) =>
          api.call(
            input.lobby === "sa" ? casinoPlay.endpoints.saCasinoLaunch : casinoPlay.endpoints.liveCasinoLaunch,
            { params: { game_id: launchIdOf(input.lobby, input.game) } },
            { notify: "failure" }
          )
        ),
        (envelope) => envelope.data
      ),
      signal
    )
}
