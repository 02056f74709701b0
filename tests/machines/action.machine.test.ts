import { describe, expect, it, vi } from "vitest"
import { createActor } from "xstate"
import { actionMachine } from "../../src/machines/action.machine.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const run = { type: "action.run" as const, name: "withdraw", perform: () => Promise.resolve("ok") }

describe("action machine (model-based)", () => {
  it("covers every state and transition", () => {
    const coverage = replayPaths(actionMachine as never, {
      actions: { succeeded: vi.fn() },
      outputs: { perform: ["ok"] },
      events: { "action.run": [run] }
    })
    expectFullCoverage(coverage)
    recordFlows("action", "A write from a button or form (save an account, withdraw, claim a bonus): one at a time, busy while it runs, success hands the answer back.", coverage)
  })

  it("runs one write at a time and hands the answer to the caller", async () => {
    let finish: (value: string) => void = () => {}
    const perform = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)))
    const onSuccess = vi.fn()
    const actor = createActor(actionMachine).start()
    actor.send({ type: "action.run", name: "claim", perform, onSuccess })
    actor.send({ type: "action.run", name: "claim", perform, onSuccess })
    expect(perform).toHaveBeenCalledTimes(1)
    expect(actor.getSnapshot().context.running?.name).toBe("claim")
    finish("done")
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(onSuccess).toHaveBeenCalledWith("done")
    expect(actor.getSnapshot().matches("Idle")).toBe(true)
  })

  it("returns to Idle without success when the write fails", async () => {
    const onSuccess = vi.fn()
    const actor = createActor(actionMachine).start()
    actor.send({ type: "action.run", name: "save", perform: () => Promise.reject(new Error("refused")), onSuccess })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(actor.getSnapshot().matches("Idle")).toBe(true)
    expect(onSuccess).not.toHaveBeenCalled()
  })
})
