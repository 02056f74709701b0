import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { resourceMachine } from "../../src/machines/resource.machine.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

describe("resource machine (model-based)", () => {
  it("covers every state and transition", () => {
    const coverage = replayPaths(resourceMachine as never, {
      input: { params: { days: 7 } },
      outputs: { load: [["row"]] },
      events: { "resource.load": [{ type: "resource.load", params: { days: 30 } }] },
      serialize: (s) => JSON.stringify([s.value, s.context.data !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows("resource", "A list a payments page shows (deposit accounts, requests, statements, bonuses, referrals): load with parameters, reload after a write or a balance change, keep the last answer while loading.", coverage)
  })

  it("loads with its parameters, keeps the last answer while reloading, and reports a failure", async () => {
    const seen: Array<unknown> = []
    let fail = false
    const load = fromPromise<unknown, unknown>(async ({ input }) => {
      seen.push(input)
      if (fail) throw new Error("offline")
      return [input]
    })
    const actor = createActor(resourceMachine.provide({ actors: { load } }), { input: { params: "a" } }).start()
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    actor.send({ type: "resource.load", params: "b" })
    expect(actor.getSnapshot().context.data).toEqual(["a"])
    await vi.waitFor(() => expect(actor.getSnapshot().context.data).toEqual(["b"]))
    fail = true
    actor.send({ type: "resource.reload" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Failed")).toBe(true))
    expect(actor.getSnapshot().context).toMatchObject({ params: "b", data: ["b"], error: "offline" })
    expect(seen).toEqual(["a", "b", "b"])
  })
})
