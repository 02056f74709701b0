import { fromCallback, sendParent, setup } from "xstate"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * Whether the browser has a network (the app's child for its whole life,
 * system id `connectivity`). Offline, the layout shows the offline screen
 * instead of the page and its prices, the header no balance, and the bet
 * slip, deposit and withdrawal cannot be sent: nothing cached is ever shown
 * as live. When the network returns, the sockets reconnect at once and the
 * app reloads what it shows (`network.restored`).
 */

export type ConnectivityEvent =
  | { type: "network.offline" }
  | { type: "network.online" }

/** The offline screen's words. */
export const OFFLINE = {
  title: "You are offline",
  message: "You are offline — prices and your balance will return when you reconnect"
} as const

export const connectivityMachine = setup({
  types: {
    events: {} as ConnectivityEvent
  },
  actors: {
    /** The browser's `online` and `offline` events (and, at once, `network.offline` if it starts without a network). */
    network: fromCallback<ConnectivityEvent>(unprovided("connectivity", "network"))
  },
  actions: {
    /** The player's and the odds sockets try again now instead of at their next back-off. */
    reconnect: unprovidedAction("connectivity", "reconnect"),
    /** The app loads again what the page shows. */
    tellRestored: sendParent({ type: "network.restored" })
  }
}).createMachine({
  id: "connectivity",
  invoke: { id: "network", src: "network" },
  initial: "Online",
  states: {
    Online: {
      on: { "network.offline": "Offline" }
    },
    Offline: {
      tags: ["offline"],
      on: {
        "network.online": {
          target: "Online",
          actions: ["reconnect", "tellRestored"]
        }
      }
    }
  }
})
