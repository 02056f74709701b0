import { describe, expect, it } from "vitest"
import { createActor, createMachine, enqueueActions, fromCallback, fromPromise, type SnapshotFrom } from "xstate"
import { INSTALL_MOMENT, type InstallEvent, installFlow, installMachine, type InstallReport } from "../../src/machines/install.machine.ts"
import { entered, expectFullCoverage, isIn, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, must, type Recorder, recorder, type WalkStep } from "./walk.ts"

type Install = SnapshotFrom<typeof installMachine>

const recordingBrowser = (world: Recorder) =>
  fromCallback<InstallEvent, void, InstallReport>(() => {
    world.record({ kind: "watch", name: "browser" })
    return () => world.record({ kind: "unwatch", name: "browser" })
  })

/** The views' vocabulary: installable where the menu offers it, offering while the banner or hint shows; offered is remembered once offered. */
export const invariants = (s: Install) => {
  must(s.hasTag("installable") === (s.matches("Available") || s.matches("Ios")), "installable exactly where it can be", s.value)
  must(s.hasTag("offering") === (isIn(s, "Available.Offering") || isIn(s, "Ios.Hint")), "the offer shows only in Offering or Hint", s.value)
  must(s.hasTag("installed") === s.matches("Installed"), "installed exactly in Installed", s.value)
  if (s.hasTag("offering")) must(s.context.offered, "an offer shown is remembered")
}

/** The offer is stored the moment it shows, the browser's prompt shown only when the player asks for it. */
const effects = (step: WalkStep<Install>): Array<Effect> => {
  if (step.before === undefined) return [{ kind: "watch", name: "browser" }]
  const out: Array<Effect> = []
  if (entered(step, "Available.Offering") || entered(step, "Ios.Hint")) {
    expect(["install.moment", "install.open"]).toContain(step.event.type)
    out.push({ kind: "store", what: "install offered" })
  }
  if (entered(step, "Available.Prompting")) {
    expect(["install.accept", "install.open"]).toContain(step.event.type)
    out.push({ kind: "call", endpoint: "install prompt" })
  }
  return out
}

describe("install machine (model-based)", () => {
  it("covers every state and transition: Chromium's prompt, iOS's hint, the moment, the menu, installed", () => {
    const world = recorder()
    const coverage = replayPaths(installMachine, {
      world,
      actors: { browser: recordingBrowser(world), prompt: world.call("install prompt") },
      actions: { rememberOffered: world.store("install offered") },
      events: {
        "install.available": [{ type: "install.available", offered: false }, { type: "install.available", offered: true }],
        "install.ios": [{ type: "install.ios", offered: false }, { type: "install.ios", offered: true }]
      },
      outputs: { prompt: ["accepted", "dismissed"] },
      invariants,
      effects
    })
    expectFullCoverage(coverage)
    recordFlows(
      "install",
      "Adding the site to the home screen: the browser says it can install (Chromium's prompt) or is iOS (the Share → Add to Home Screen hint); the first bet or deposit offers it once per browser; the profile menu's Install entry at any time; installed.",
      coverage
    )
  })
})

describe("install machine behaviour", () => {
  const start = (offered: boolean) => {
    let report: ((event: InstallReport) => void) | undefined
    const prompts: Array<string> = []
    const stored: Array<string> = []
    const logic = installMachine.provide({
      actors: {
        browser: fromCallback<InstallEvent, void, InstallReport>(({ sendBack }) => {
          report = sendBack
        }),
        prompt: fromPromise<"accepted" | "dismissed">(async () => (prompts.push("shown"), "accepted"))
      },
      actions: { rememberOffered: () => void stored.push("offered") }
    })
    // The bet slip's and the deposit form's way to it: through the system, when the page has the flow.
    const page = createMachine({
      invoke: [{ id: "install", systemId: "install", src: logic }, { id: "slip", src: createMachine({ on: { placed: { actions: enqueueActions(({ system, enqueue }) => {
        const install = installFlow(system)
        if (install) enqueue.sendTo(install, INSTALL_MOMENT)
      }) } } }) }]
    })
    const actor = createActor(page).start()
    const install = actor.system.get("install")
    const slip = actor.getSnapshot().children.slip!
    report!({ type: "install.available", offered })
    return { install, slip, prompts, stored }
  }

  it("offers it at the first bet, once, and shows the browser's prompt only when the player accepts", async () => {
    const { install, slip, prompts, stored } = start(false)
    expect(install.getSnapshot().hasTag("offering")).toBe(false)
    slip.send({ type: "placed" })
    expect(install.getSnapshot().hasTag("offering")).toBe(true)
    expect(prompts).toEqual([])
    install.send({ type: "install.dismiss" })
    slip.send({ type: "placed" })
    expect(install.getSnapshot().hasTag("offering")).toBe(false)
    expect(stored).toEqual(["offered"])
    install.send({ type: "install.open" })
    await expect.poll(() => install.getSnapshot().hasTag("installed")).toBe(true)
    expect(prompts).toEqual(["shown"])
  })

  it("never offers it again in a browser that was offered it, but keeps the menu's entry", () => {
    const { install, slip } = start(true)
    slip.send({ type: "placed" })
    expect(install.getSnapshot().hasTag("offering")).toBe(false)
    expect(install.getSnapshot().hasTag("installable")).toBe(true)
  })
})
