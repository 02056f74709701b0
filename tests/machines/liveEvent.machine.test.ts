import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromCallback, fromPromise, type SnapshotFrom } from "xstate"
import { liveEventMachine } from "../../src/machines/liveEvent.machine.ts"
import type { EventFairness, Score } from "../../src/schema/betting.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, hosted, recorder, settled, type WalkStep } from "./walk.ts"

const score: Score = { eventId: "e1", sportCode: "4", home: "IND 84/2 (9.3)", away: "AUS yet to bat", summary: "IND 84/2 (9.3)", clock: "1st inns, over 9.3", status: "live" }
const fairness: EventFairness = { eventId: "e1", commitment: "a".repeat(64), seed: null, revealedAt: null }
const failure: Failure = { code: 500, message: "Something went wrong", reason: "ServerError" }

type Live = SnapshotFrom<typeof liveEventMachine>

/** Always watching the event it was opened for; its fairness is what the server said, if it answered. */
export const invariants = (s: Live) => {
  expect(s.context.eventId).toBe("e1")
  expect(s.matches("Watching")).toBe(true)
  if (s.context.fairness) expect(s.context.fairness).toEqual(fairness)
}

/**
 * Opening watches the event and the catalogue and asks for its fairness; a catalogue change goes to the app, unless it
 * names another event (a line opened there); a score shows at once.
 */
const effects = (step: WalkStep<Live>): Array<Effect> => {
  const { event, after } = step
  if (event.type === "xstate.init") {
    return [
      { kind: "watch", name: "event", input: { eventId: "e1" } },
      { kind: "watch", name: "catalogue" },
      { kind: "call", endpoint: "GET /api/v1/event-fairness", body: { event_id: "e1" } }
    ]
  }
  if (settled(step, "loadFairness") === "done") expect(after.context.fairness).toEqual(fairness)
  if (settled(step, "loadFairness") === "error") expect(after.context.fairness).toEqual(step.before?.context.fairness)
  if (event.type === "score.update") expect(after.context.score).toEqual(event.score)
  if (event.type === "catalogue.changed" && (event.eventId === undefined || event.eventId === "e1")) {
    return [{ kind: "do", name: "tell parent", params: { type: "catalogue.changed" } }]
  }
  return []
}

describe("liveEvent machine (model-based)", () => {
  it("reaches every state and takes every transition, watching its event and telling the app of catalogue changes", () => {
    const world = recorder()
    const coverage = replayPaths(liveEventMachine, {
      input: { eventId: "e1" },
      world,
      host: hosted(world),
      actors: {
        watchEvent: world.watch("event"),
        watchCatalogue: world.watch("catalogue"),
        loadFairness: world.call("GET /api/v1/event-fairness", ({ eventId }: { eventId: string }) => ({ event_id: eventId }))
      },
      outputs: { loadFairness: [fairness] },
      errors: { loadFairness: [failure] },
      graphActions: { tellApp: vi.fn<() => void>() },
      invariants,
      effects,
      events: {
        "score.update": [{ type: "score.update", score }],
        "catalogue.changed": [{ type: "catalogue.changed" }, { type: "catalogue.changed", eventId: "e1" }, { type: "catalogue.changed", eventId: "e2" }]
      }
    })
    expectFullCoverage(coverage)
    recordFlows("liveEvent", "The event on screen (event page, a race): its prices stream into the odds books and its score into context while the flow is open; its fairness (the commitment to its seed) is loaded once; a catalogue change is passed to the app, which reloads the sports.", coverage)
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
            watchCatalogue: fromCallback(() => () => {}),
            loadFairness: fromPromise(() => Promise.resolve(fairness))
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

  it("passes on a line opened on its own event, or a change of the whole catalogue, but not a line opened on another event", () => {
    const heard: Array<string> = []
    let changed: (event: { type: string; eventId?: string }) => void = () => {}
    /** The app with two event pages open (e1, e2): it reloads the sports each time a page tells it. */
    const app = createMachine({
      invoke: [{ id: "e1", src: "live", input: { eventId: "e1" } }, { id: "e2", src: "live", input: { eventId: "e2" } }],
      on: { "catalogue.changed": { actions: () => heard.push("reload") } }
    }).provide({
      actors: {
        live: liveEventMachine.provide({
          actors: {
            watchEvent: fromCallback(() => () => {}),
            // One odds channel: every page hears the same message.
            watchCatalogue: fromCallback(({ sendBack }) => {
              const previous = changed
              changed = (event) => (previous(event), sendBack(event))
              return () => {}
            }),
            loadFairness: fromPromise(() => Promise.resolve(fairness))
          }
        })
      }
    })
    const actor = createActor(app).start()
    changed({ type: "catalogue.changed", eventId: "e3" })
    expect(heard).toEqual([])
    // Only e2's page passes it on.
    changed({ type: "catalogue.changed", eventId: "e2" })
    expect(heard).toEqual(["reload"])
    // Both pages pass on a change of the whole catalogue.
    changed({ type: "catalogue.changed" })
    expect(heard).toEqual(["reload", "reload", "reload"])
    actor.stop()
  })
})
