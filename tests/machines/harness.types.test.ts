import { describe, expect, it } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import { installMachine } from "../../src/machines/install.machine.ts"
import { entered, isIn, type ModelOptions, silentCallback } from "./harness.ts"
import type { WalkStep } from "./walk.ts"

type Install = SnapshotFrom<typeof installMachine>

/**
 * The harness is typed by the machine it drives: a state path, an event or a
 * fake the machine has not got does not compile. `tsc` checks the
 * `@ts-expect-error` lines below; should the typing loosen, they fail it.
 */
const typed = (s: Install, step: WalkStep<Install>) => {
  isIn(s, "Available.Offering")
  // @ts-expect-error: a typo in a state path
  isIn(s, "Available.Ofering")
  // @ts-expect-error: a state the machine has not got
  entered(step, "Nowhere")
  const options: ModelOptions<typeof installMachine> = {
    // @ts-expect-error: an event the machine has not got
    events: { "install.maybe": [{ type: "install.maybe" }] },
    // @ts-expect-error: a fake whose output is not the actor's
    actors: { prompt: fromPromise<number>(async () => 1) }
  }
  // @ts-expect-error: an event the machine has not got, sent
  createActor(installMachine).send({ type: "install.maybe" })
  return options
}

describe("the machine-test harness", () => {
  it("reads state paths off the machine it drives", () => {
    const actor = createActor(installMachine.provide({ actors: { browser: silentCallback() } })).start()
    actor.send({ type: "install.available", offered: false })
    expect(isIn(actor.getSnapshot(), "Available")).toBe(true)
    expect(isIn(actor.getSnapshot(), "Waiting")).toBe(false)
    actor.stop()
    expect(typed).toBeTypeOf("function")
  })
})
