import { describe, expect, it } from "vitest"
import { createActor, createMachine, fromCallback, type SnapshotFrom } from "xstate"
import { type ConnectivityEvent, connectivityMachine } from "../../src/machines/connectivity.machine.ts"
import { entered, expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, hosted, must, recorder, type WalkStep } from "./walk.ts"

type Connectivity = SnapshotFrom<typeof connectivityMachine>

/** Offline is a tag the views read, and only the Offline state has it. */
export const invariants = (s: Connectivity) => must(s.hasTag("offline") === s.matches("Offline"), "offline exactly in Offline", s.value)

/**
 * The browser's network is followed for the machine's whole life; coming back online reconnects the sockets at
 * once and tells the app to load again what it shows; going offline takes nothing (the views hide what is not live).
 */
const effects = (step: WalkStep<Connectivity>): Array<Effect> => {
  if (step.before === undefined) return [{ kind: "watch", name: "network" }]
  if (step.before.matches("Offline") && entered(step, "Online")) {
    return [{ kind: "do", name: "reconnect" }, { kind: "do", name: "tell parent", params: { type: "network.restored" } }]
  }
  return []
}

describe("connectivity machine (model-based)", () => {
  it("covers every state and transition, reconnecting and reloading only when the network comes back", () => {
    const world = recorder()
    const coverage = replayPaths(connectivityMachine, {
      world,
      host: hosted(world),
      graphActions: { tellRestored: () => {} },
      actors: { network: world.watch("network") },
      actions: { reconnect: world.act("reconnect") },
      invariants,
      effects
    })
    expectFullCoverage(coverage)
    recordFlows("connectivity", "The browser's network (the app's child for its whole life): Online / Offline from the browser's online and offline events; offline, the layout shows the offline screen and nothing can be sent; back online, the sockets reconnect at once and the app loads again what it shows.", coverage)
  })
})

describe("connectivity machine behaviour", () => {
  it("starts offline when the browser has no network, and tells its parent once when it comes back", () => {
    const told: Array<string> = []
    let report: ((event: ConnectivityEvent) => void) | undefined
    const machine = connectivityMachine.provide({
      actors: {
        network: fromCallback<ConnectivityEvent>(({ sendBack }) => {
          report = (event) => sendBack(event)
          sendBack({ type: "network.offline" })
        })
      },
      actions: { reconnect: () => void told.push("reconnect") }
    })
    const parent = createActor(createMachine({
      invoke: { id: "connectivity", src: machine },
      on: { "network.restored": { actions: () => void told.push("restored") } }
    })).start()
    const child = parent.getSnapshot().children.connectivity!
    expect(child.getSnapshot().hasTag("offline")).toBe(true)
    report!({ type: "network.offline" })
    report!({ type: "network.online" })
    report!({ type: "network.online" })
    expect(told).toEqual(["reconnect", "restored"])
    expect(child.getSnapshot().hasTag("offline")).toBe(false)
    parent.stop()
  })
})
