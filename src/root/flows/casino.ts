import { Effect } from "effect"
import { LAUNCH_NOTICES } from "../../domain/casino.ts"
import { casinoMachine } from "../../machines/casino.machine.ts"
import { CasinoApi, CasinoPlayApi } from "../../schema/casino.ts"
import { Api } from "../../services/api.ts"
import { data, effect, task } from "../bridge.ts"
import { casinoGamesQuery, launchParams } from "../requests.ts"
import { Notices } from "../../services/notices.ts"

const warn = (notice: { readonly message: string; readonly subMessage: string }) => () =>
  effect(Notices.use((notices) => notices.warning(notice.message, notice.subMessage)).pipe(Effect.asVoid))

/** A casino lobby with its calls, the two launch notices of SPEC section 8, and leaving for the game. */
export default casinoMachine.provide({
  actors: {
    loadGames: task(({ lobby }) =>
      data(Api.use((api) =>
        lobby === "sa"
          ? api.call(CasinoApi.endpoints.saCasinoGames, {}, { notify: "none" })
          : api.call(CasinoApi.endpoints.casinoGames, { query: casinoGamesQuery({ lobby }) }, { notify: "none" })
      ))
    ),
    launchGame: task((launch) =>
      data(Api.use((api) =>
        api.call(
          launch.lobby === "sa" ? CasinoPlayApi.endpoints.saCasinoLaunch : CasinoPlayApi.endpoints.liveCasinoLaunch,
          { params: launchParams(launch) },
          { notify: "failure" }
        )
      ))
    )
  },
  actions: {
    notifyLoginRequired: warn(LAUNCH_NOTICES.loginRequired),
    notifyUnavailable: warn(LAUNCH_NOTICES.unavailable),
    openGame: (_, { url }: { url: string }) => window.location.assign(url)
  }
})
