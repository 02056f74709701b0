import { createContext, useContext } from "react"
import type { FlowName } from "../machines/flows.ts"
import type { MarketBook, PriceLevel } from "../schema/betting.ts"
import type { Toast } from "../schema/notices.ts"
import { type Loadable, useLoaded } from "./loadable.ts"

/**
 * What the composition root (src/root) hands the views, so no view imports
 * a service: the loader of flow logic, the toast list and the odds books.
 * Views otherwise only read actors (`useFlow`, the app actor) and send them
 * events.
 */
export interface Notice extends Toast {
  readonly id: number
}

/** The toasts on screen; each closes itself after 3 s (SPEC section 9). */
export interface NoticeFeed {
  readonly snapshot: () => ReadonlyArray<Notice>
  readonly subscribe: (listener: () => void) => () => void
  readonly dismiss: (id: number) => void
}

/**
 * The live prices of the events being watched (a `liveEvent` flow watches
 * one). They change up to a thousand times a second, so they are not
 * machine context: each odds cell subscribes to its own market and reads its
 * own price, and a tick re-renders that cell only.
 */
export interface OddsBooks {
  readonly book: (marketId: string) => MarketBook | undefined
  /** The price at `level` (0 = best) of one side of a runner. */
  readonly level: (marketId: string, selectionId: string, side: "back" | "lay", level?: number) => PriceLevel | undefined
  readonly subscribeMarket: (marketId: string, listener: () => void) => () => void
  /** Live prices of an event (counted, so two views may watch one); the returned function stops them. */
  readonly watch: (eventId: string) => () => void
  /** Live prices of one market of an event, a list's row (once a second at most); the returned function stops them. */
  readonly watchMarket: (eventId: string, marketId: string) => () => void
}

export interface Ports {
  /** Loads a flow's logic (its own chunk), once; `useFlow` waits for it before opening the flow. */
  readonly loadFlow: (flow: FlowName) => Promise<void>
  readonly notices: NoticeFeed
  /** The odds books, loaded with the first page that shows prices. */
  readonly oddsBooks: Loadable<OddsBooks>
}

export const PortsContext = createContext<Ports | undefined>(undefined)

/** The odds books, undefined while they load (the first view that asks starts the load). */
export const useOddsBooks = (): OddsBooks | undefined => useLoaded(usePorts().oddsBooks)

export const usePorts = (): Ports => {
  const ports = useContext(PortsContext)
  if (!ports) throw new Error("views: rendered outside the composition root (src/root/main.tsx provides the ports)")
  return ports
}
