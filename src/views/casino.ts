import { Effect } from "effect"
import { LAUNCH_NOTICES } from "../domain/casino.ts"
import { casinoMachine } from "../machines/casino.machine.ts"
import { Notices } from "../services/notices.ts"
import { run } from "../services/runtime.ts"

const warn = (notice: { readonly message: string; readonly subMessage: string }) =>
  void run(Notices.use((notices) => notices.warning(notice.message, notice.subMessage)).pipe(Effect.asVoid))

/** The casino machine with the browser's side effects: the two launch notices and leaving for the game. */
export const browserCasinoMachine = casinoMachine.provide({
  actions: {
    notifyLoginRequired: () => warn(LAUNCH_NOTICES.loginRequired),
    notifyUnavailable: () => warn(LAUNCH_NOTICES.unavailable),
    openGame: (_, { url }: { url: string }) => window.location.assign(url)
  }
})
