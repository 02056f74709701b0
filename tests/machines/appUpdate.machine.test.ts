import { describe, expect, it } from "vitest"
import { createActor, fromCallback, SimulatedClock, type SnapshotFrom } from "xstate"
import { UPDATE_CHECK_MS } from "../../src/domain/pwa.ts"
import { appUpdateMachine, type WorkerCommand, type WorkerReport } from "../../src/machines/appUpdate.machine.ts"
import { entered, expectFullCoverage, left, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, must, type Recorder, recorder, type WalkStep } from "./walk.ts"

type Update = SnapshotFrom<typeof appUpdateMachine>

/** The worker as the walk sees it: it records that it runs, what the machine asks of it, and that it stopped. */
const recordingWorker = (world: Recorder) =>
  fromCallback<WorkerCommand, void, WorkerReport>(({ receive }) => {
    world.record({ kind: "watch", name: "worker" })
    receive((command) => world.record({ kind: "do", name: command.type }))
    return () => world.record({ kind: "unwatch", name: "worker" })
  })

/** The prompt shows exactly while a build waits for the player (and while it takes over); nothing else is busy. */
export const invariants = (s: Update) => {
  must(s.hasTag("updateReady") === s.matches("Ready"), "the prompt shows exactly while a build waits", s.value)
  must(s.hasTag("busy") === s.matches("Reloading"), "busy exactly while the new build takes over", s.value)
  must(s.status === "done" ? s.matches("Unsupported") : true, "only a browser without a worker ends the flow", s.value)
}

/**
 * The worker runs from the start until the flow ends; a check is asked every hour while current and on every
 * focus, never while the prompt shows; the take-over (then the reload) only when the player chose Reload.
 */
const effects = (step: WalkStep<Update>): Array<Effect> => {
  if (step.before === undefined) return [{ kind: "watch", name: "worker" }]
  if (left(step, "Registering") && step.after.matches("Unsupported")) return [{ kind: "unwatch", name: "worker" }]
  if (entered(step, "Reloading")) {
    expect(step.event.type).toBe("update.reload")
    return [{ kind: "do", name: "worker.activate" }]
  }
  const hourlyCheck = step.before.matches("Current") && step.event.type.startsWith("xstate.after.") && step.after.matches("Current")
  if (hourlyCheck || (step.before.matches("Current") && step.event.type === "window.focused")) return [{ kind: "do", name: "worker.check" }]
  return []
}

describe("appUpdate machine (model-based)", () => {
  it("covers every state and transition: registration, hourly and focus checks, the prompt, Later and Reload", () => {
    const world = recorder()
    const coverage = replayPaths(appUpdateMachine, {
      world,
      actors: { worker: recordingWorker(world) },
      invariants,
      effects
    })
    expectFullCoverage(coverage)
    recordFlows(
      "appUpdate",
      "The app's service worker: registered after the first paint; looks for a new build hourly and on focus; a waiting build shows 'A new version is ready — Reload' (put off, it returns an hour later); Reload lets it take over, then reloads. Never a reload by itself.",
      coverage
    )
  })
})

describe("appUpdate machine behaviour", () => {
  const start = () => {
    const commands: Array<WorkerCommand["type"]> = []
    let report: ((event: WorkerReport) => void) | undefined
    const clock = new SimulatedClock()
    const actor = createActor(appUpdateMachine.provide({
      actors: {
        worker: fromCallback<WorkerCommand, void, WorkerReport>(({ sendBack, receive }) => {
          report = sendBack
          receive((command) => commands.push(command.type))
        })
      }
    }), { clock }).start()
    return { actor, commands, clock, report: (event: WorkerReport) => report!(event) }
  }

  it("checks every hour, on focus, and never reloads by itself however long the prompt stays", () => {
    const { actor, commands, clock, report } = start()
    report({ type: "worker.registered" })
    clock.increment(UPDATE_CHECK_MS - 1)
    expect(commands).toEqual([])
    clock.increment(1)
    expect(commands).toEqual(["worker.check"])
    report({ type: "window.focused" })
    expect(commands).toEqual(["worker.check", "worker.check"])
    report({ type: "update.waiting" })
    expect(actor.getSnapshot().hasTag("updateReady")).toBe(true)
    clock.increment(10 * UPDATE_CHECK_MS)
    report({ type: "window.focused" })
    expect(commands).toEqual(["worker.check", "worker.check"])
    actor.send({ type: "update.reload" })
    expect(commands).toEqual(["worker.check", "worker.check", "worker.activate"])
  })

  it("brings a put-off prompt back an hour later", () => {
    const { actor, clock, report } = start()
    report({ type: "worker.registered" })
    report({ type: "update.waiting" })
    actor.send({ type: "update.later" })
    expect(actor.getSnapshot().hasTag("updateReady")).toBe(false)
    clock.increment(UPDATE_CHECK_MS)
    expect(actor.getSnapshot().hasTag("updateReady")).toBe(true)
  })
})
