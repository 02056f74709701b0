import { CasinoPlayApi } from "../../schema/casino.ts"
import type { CasinoGame } from "../../schema/casino.ts"
import type { Lobby } from "../../domain/casino.ts"
import { Api } from "../../services/api.ts"
import { data, runTask } from "../bridge.ts"

export { toastFailure } from "../bridge.ts"
import { launchParams } from "../requests.ts"

/**
 * A casino game's launch, on the Effect runtime: this chunk (and the runtime)
 * loads with the first launch, so a lobby shows its games without it
 * (src/root/flows/casino.ts).
 */
export const launchGame = (launch: { lobby: Lobby; game: CasinoGame }, signal: AbortSignal) =>
  runTask(
    data(Api.use((api) =>
      api.call(
        launch.lobby === "sa" ? CasinoPlayApi.endpoints.saCasinoLaunch : CasinoPlayApi.endpoints.liveCasinoLaunch,
        { params: launchParams(launch) }
      )
    )),
    signal
  )
