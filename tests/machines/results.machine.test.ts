import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type ResultsContext, type ResultsRequest, resultsMachine } from "../../src/machines/results.machine.ts"
import type { ResultsPage, SettledMarket } from "../../src/schema/results.ts"
import { expectFullCoverage, invokedWith, recordFlows, replayPaths, type Step } from "./harness.ts"

const row = (marketId: string): SettledMarket => ({
  marketId, market: "Win", marketType: "EXCHANGE", eventId: "e1", event: "14:05 Ascot", sport: "Horse Racing", sportSlug: "horse-racing",
  league: "Ascot", settledAt: "2026-11-28T10:00:00.000Z", outcome: "result", result: "Shadowfax"
})
const first: ResultsPage = { rows: [row("m1")], next: "1764324000000000.m1" }
const last: ResultsPage = { rows: [row("m2")], next: null }

const checkStep = (step: Step) => {
  const before: ResultsContext = step.before.context
  const context: ResultsContext = step.after.context
  const load = invokedWith(step, "loadResults")
  const more = invokedWith(step, "loadMore")
  // A first page is asked for the sport chosen, with no cursor; a next page with the cursor the last page gave.
  if (load) expect(load.input).toEqual(context.sport === null ? {} : { sport: context.sport })
  if (more) expect(more.input).toEqual({ ...(context.sport === null ? {} : { sport: context.sport }), after: before.next })
  if (step.event.type === "xstate.done.actor.loadResults") {
    expect(context.rows).toEqual(step.event.output.rows)
    expect(context.next).toBe(step.event.output.next)
  } else if (step.event.type === "xstate.done.actor.loadMore") {
    expect(context.rows).toEqual([...before.rows, ...step.event.output.rows])
    expect(context.next).toBe(step.event.output.next)
  } else if (!step.event.type.startsWith("xstate.init")) {
    // Nothing else changes the rows: they stay on screen until the next first page replaces them.
    expect(context.rows).toEqual(before.rows)
  }
  // "Show more" only while there is a next page.
  if (step.event.type === "results.more") expect(more !== undefined).toBe(before.next !== null)
  // A next page's failure is a toast, once; a first page's is shown on the page.
  expect(step.actions).toEqual(step.event.type === "xstate.error.actor.loadMore" ? [{ type: "toastFailure", params: { error: step.event.error } }] : [])
}

describe("results machine (model-based)", () => {
  it("covers every state and transition: first pages by sport, next pages, failures", () => {
    const coverage = replayPaths(resultsMachine, {
      outputs: { loadResults: [first, last], loadMore: [last] },
      actions: { toastFailure: () => {} },
      events: { "results.sport": [{ type: "results.sport", sport: "cricket" }, { type: "results.sport", sport: null }] },
      serialize: (s) => JSON.stringify([s.value, s.context.sport, s.context.rows.length > 0, s.context.next]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    recordFlows(
      "results",
      "/results: the markets settled in the last 7 days, by sport or all; a first page with each choice of sport (a failure offers Try again), \"Show more\" appends the next page while there is one.",
      coverage
    )
  })
})

describe("results machine behaviour", () => {
  it("appends the next page to the rows and stops offering more on the last", async () => {
    const asked: Array<ResultsRequest> = []
    const actor = createActor(resultsMachine.provide({
      actors: {
        loadResults: fromPromise(async ({ input }: { input: ResultsRequest }) => (asked.push(input), first)),
        loadMore: fromPromise(async ({ input }: { input: ResultsRequest }) => (asked.push(input), last))
      }
    })).start()
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    actor.send({ type: "results.more" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.rows.map((r) => r.marketId)).toEqual(["m1", "m2"]))
    expect(actor.getSnapshot().context.next).toBeNull()
    actor.send({ type: "results.more" })
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    actor.send({ type: "results.sport", sport: "horse-racing" })
    await vi.waitFor(() => expect(asked).toHaveLength(3))
    expect(asked).toEqual([{}, { after: first.next }, { sport: "horse-racing" }])
  })
})
