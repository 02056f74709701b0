import { createContext, useContext } from "react"
import type { FlowName } from "../machines/flows.ts"
import type { Toast } from "../schema/notices.ts"

/**
 * What the composition root (src/root) hands the views, so no view imports
 * a service: the loader of flow logic, and the toast list. Views otherwise
 * only read actors (`useFlow`, the app actor) and send them events.
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

export interface Ports {
  /** Loads a flow's logic (its own chunk), once; `useFlow` waits for it before opening the flow. */
  readonly loadFlow: (flow: FlowName) => Promise<void>
  readonly notices: NoticeFeed
}

export const PortsContext = createContext<Ports | undefined>(undefined)

export const usePorts = (): Ports => {
  const ports = useContext(PortsContext)
  if (!ports) throw new Error("views: rendered outside the composition root (src/root/main.tsx provides the ports)")
  return ports
}
