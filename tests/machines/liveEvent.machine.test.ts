import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromCallback } from "xstate"
import { liveEventMachine } from "../../src/machines/liveEvent.machine.ts"
import type { Score } from "../../src/schema/betting.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const score: Score = { eventId: "e1", sportCode: "4", home: "IND 84/2 (9.3)", away: "AUS yet to bat", summary: "IND 84/2 (9.3)", clock: "1st inns, over 9.3", status: "live" }

describe("liveEvent machine (model-based)", () => {
  it("reaches every state and takes every transition", () => {
    const coverage = replayPaths(liveEventMachine as never, {
      input: { eventId: "e1" },
      actions: { tellApp: vi.fn() },
      events: { "score.update": [{ type: "score.update", score }] }
    })
    expectFullCoverage(coverage)
    recordFlows("liveEvent", "The event on screen (event page, a race): its prices stream into the odds books and its score into context while the flow is open; a catalogue change is passed to the app, which reloads the sports.", coverage)
  })

  it("watches its event, follows the score and tells the app (its parent) that the catalogue changed", () => {
    const watched: Array<string> = []
    let send: (event: { type: string; score?: Score }) => void = () => {}
    const heard: Array<string> = []
    const app = createMachine({
      invoke: { id: "live", src: "live", input: { eventId: "e1" } },
      on: { "catalogue.changed": { actions: () => heard.push("catalogue.changed") } }
    }).provide({
      actors: {
        live: liveEventMachine.provide({
          actors: {
            watchEvent: fromCallback(({ input, sendBack }: { input: { eventId: string }; sendBack: typeof send }) => {
              watched.push(input.eventId)
              send = sendBack
              return () => watched.push(`stop ${input.eventId}`)
            }),
            watchCatalogue: fromCallback(() => () => {})
          }
        })
      }
    })
    const actor = createActor(app).start()
    send({ type: "score.update", score })
    expect(actor.getSnapshot().children.live?.getSnapshot().context.score).toEqual(score)
    send({ type: "catalogue.changed" })
    expect(heard).toEqual(["catalogue.changed"])
    actor.stop()
    expect(watched).toEqual(["e1", "stop e1"])
  })
})
