import { describe, expect, it } from "vitest"
import { createActor, fromCallback, type SnapshotFrom } from "xstate"
import { livePanelMachine } from "../../src/machines/livePanel.machine.ts"
import type { Score } from "../../src/schema/betting.ts"
import { entered, expectFullCoverage, left, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, recorder, type WalkStep } from "./walk.ts"

const score: Score = { eventId: "e1", sportCode: "4", home: "IND 84/2 (9.3)", away: "AUS yet to bat", summary: "IND 84/2 (9.3)", clock: "1st inns, over 9.3", status: "live" }

type Panel = SnapshotFrom<typeof livePanelMachine>

/** The panel is open on the score or the TV, or closed; it always shows the event it was opened for. */
export const invariants = (s: Panel) => {
  expect(s.context.eventId).toBe("e1")
  expect(s.hasTag("open")).toBe(!s.matches("Closed"))
}

/** The score is followed on the odds channel exactly while the score shows; an update shows at once. */
const effects = (step: WalkStep<Panel>): Array<Effect> => {
  if (step.event.type === "score.update") expect(step.after.context.score).toEqual(step.event.score)
  if (entered(step, "Score")) return [{ kind: "watch", name: "score", input: { eventId: "e1" } }]
  if (left(step, "Score")) return [{ kind: "unwatch", name: "score" }]
  return []
}

describe("livePanel machine (model-based)", () => {
  it("reaches every state and takes every transition, following the score only while it shows", () => {
    const world = recorder()
    const coverage = replayPaths(livePanelMachine, {
      input: { eventId: "e1" },
      world,
      actors: { watchScore: world.watch("score") },
      invariants,
      effects,
      events: { "score.update": [{ type: "score.update", score }] },
      serialize: (s) => JSON.stringify([s.value, s.context.score !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows("livePanel", "Live score / TV panel: Score and Tv toggles switch (the active one collapses), the collapse button closes; the score follows the odds channel.", coverage)
  })

  it("follows the score while the score is shown", () => {
    let push: ((score: Score) => void) | undefined
    const actor = createActor(livePanelMachine.provide({
      actors: {
        watchScore: fromCallback(({ sendBack }) => {
          push = (s) => sendBack({ type: "score.update", score: s })
          return () => {
            push = undefined
          }
        })
      }
    }), { input: { eventId: "e1" } }).start()
    push!(score)
    expect(actor.getSnapshot().context.score).toEqual(score)
    actor.send({ type: "panel.tv" })
    expect(push).toBeUndefined()
    actor.send({ type: "panel.collapse" })
    expect(actor.getSnapshot().value).toBe("Closed")
  })
})
