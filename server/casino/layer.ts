import { Effect, Layer } from "effect"
import { LOBBY_PATH, type Lobby } from "../../src/domain/casino.ts"
import { FirstResources } from "../edge/site.ts"
import { CasinoAdminHandlers, CasinoHandlers, CasinoPlayHandlers, CasinoWalletHandlers } from "./http.ts"
import { Casino } from "./Casino.ts"
import { Khel } from "./khel/Khel.ts"
import { SeamlessWallet } from "./SeamlessWallet.ts"

export { CasinoRoutes, ProviderSignatureLive } from "./http.ts"

/** The casino's services: catalogue and launches, the seamless wallet, and the built-in provider. */
const lobbyAt = (pathname: string) => (Object.keys(LOBBY_PATH) as Array<Lobby>).find((lobby) => LOBBY_PATH[lobby] === pathname)

/**
 * A lobby's first card's artwork (the "All" grid, in the lobby's order): its largest paint. Only the first: the
 * other cards' artwork would take bandwidth from the JavaScript that renders them.
 */
const LobbyFirstResources = Layer.effect(FirstResources, Effect.gen(function*() {
  const casino = yield* Casino
  return FirstResources.of({
    of: (pathname) => {
      const lobby = lobbyAt(pathname)
      if (!lobby) return Effect.succeed([])
      return casino.lobby(lobby).pipe(
        Effect.map((games) => games.slice(0, 1).map((game) => ({ href: game.game_images, as: "image" as const }))),
        Effect.orElseSucceed(() => [])
      )
    }
  })
}))

export const CasinoServicesLive = Layer.mergeAll(SeamlessWallet.layer, Khel.layer, LobbyFirstResources).pipe(Layer.provideMerge(Casino.layer))

export const CasinoHandlersLive = Layer.mergeAll(CasinoHandlers, CasinoPlayHandlers, CasinoAdminHandlers, CasinoWalletHandlers)
