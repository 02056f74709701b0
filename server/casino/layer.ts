import { Layer } from "effect"
import { CasinoAdminHandlers, CasinoHandlers, CasinoPlayHandlers, CasinoWalletHandlers } from "./http.ts"
import { Casino } from "./Casino.ts"
import { Khel } from "./khel/Khel.ts"
import { SeamlessWallet } from "./SeamlessWallet.ts"

export { CasinoRoutes, ProviderSignatureLive } from "./http.ts"

/** The casino's services: catalogue and launches, the seamless wallet, and the built-in provider. */
export const CasinoServicesLive = Layer.mergeAll(SeamlessWallet.layer, Khel.layer).pipe(Layer.provideMerge(Casino.layer))

export const CasinoHandlersLive = Layer.mergeAll(CasinoHandlers, CasinoPlayHandlers, CasinoAdminHandlers, CasinoWalletHandlers)
