import { OFFLINE } from "../../machines/connectivity.machine.ts"
import { Icon } from "../widgets/Icon.tsx"

/**
 * What the page shows without a network, in place of its content: the shell
 * stays (header, menus), prices and balances do not, since they could not be
 * live. The page itself stays mounted underneath (a typed stake survives) and
 * comes back when the network does.
 */
export const OfflineScreen = () => (
  <section role="status" aria-live="polite" data-testid="offline-screen" className="card mx-auto mt-6 flex max-w-md flex-col items-center gap-3 px-6 py-10 text-center">
    <Icon name="offline" size={40} className="text-muted" />
    <h1 className="page-title m-0">{OFFLINE.title}</h1>
    <p className="m-0 text-sm text-muted">{OFFLINE.message}</p>
  </section>
)

/** The header's place for the balance (or Login and Register) while offline. */
export const OfflineBadge = () => (
  <span className="chip border-warn text-warn" data-testid="offline-badge">
    <Icon name="offline" size={14} /> Offline
  </span>
)
