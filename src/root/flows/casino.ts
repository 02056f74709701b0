import { type Lobby, LAUNCH_NOTICES } from "../../domain/casino.ts"
import { casinoMachine } from "../../machines/casino.machine.ts"
import type { Failure } from "../../schema/errors.ts"
import { noticeStore } from "../../services/noticeStore.ts"
import { casinoGamesQuery } from "../requests.ts"
import { lazyTask } from "../lazyTask.ts"
import { startupTask } from "../startup.ts"

/**
 * The launch's call loads with its chunk (and the Effect runtime) on the first launch: the lobby's games are read
 * without them (src/root/startup.ts), so a lobby paints its cards before the runtime has loaded.
 */
const calls = () => import("./casinoCalls.ts")

const warn = (notice: { readonly message: string; readonly subMessage: string }) => () => noticeStore.show("warning", notice.message, notice.subMessage)

/** A casino lobby with its calls, the two launch notices of SPEC section 8, and leaving for the game. */
export default casinoMachine.provide({
  actors: {
    loadGames: startupTask<"casinoGames" | "saCasinoGames", { lobby: Lobby }>(
      ({ lobby }) => (lobby === "sa" ? "saCasinoGames" : "casinoGames"),
      { query: casinoGamesQuery }
    ),
    launchGame: lazyTask(calls, (c) => c.launchGame)
  },
  actions: {
    notifyLoginRequired: warn(LAUNCH_NOTICES.loginRequired),
    notifyUnavailable: warn(LAUNCH_NOTICES.unavailable),
    openGame: (_, { url }: { url: string }) => window.location.assign(url),
    // Only a launch fails with a toast, and its chunk is loaded by then.
    toastFailure: (_, params: { error: Failure }) => void calls().then((c) => c.toastFailure(_, params))
  }
})
