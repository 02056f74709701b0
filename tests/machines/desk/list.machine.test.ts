import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type ListContext, listMachine, type Page, type PageRequest } from "../../../src/desk/machines/list.machine.ts"
import type { Failure } from "../../../src/schema/errors.ts"
import { actionParams, callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "../harness.ts"

interface Row {
  readonly id: string
}

const machine = listMachine<Row>()
const first: Page<Row> = { items: [{ id: "a" }, { id: "b" }], next: "b", total: 3 }
const last: Page<Row> = { items: [{ id: "c" }], next: null, total: 3 }
const refused: Failure = { code: 400, message: "That page does not exist: start the search again.", reason: "InvalidInput" }
const csv = "id,at\r\n1,2026-11-28\r\n"

const seen = new Set<string>()

const checkStep = (step: Step) => {
  const before: ListContext<Row> = step.before.context
  const context: ListContext<Row> = step.after.context
  // The first page is always the one loaded with no cursor; each next page adds the cursor it was asked with.
  expect(context.cursors[0]).toBeUndefined()
  expect(context.cursors.length).toBeGreaterThanOrEqual(1)
  // A load asks for the query as it is (empty fields left out) and the current page's cursor.
  const load = invokedWith(step, "load")
  if (entered(step, "Loading") || (step.event.type !== "xstate.init" && isIn(step.after, "Loading") && step.event.type !== "xstate.done.actor.load" && load)) {
    const request = load?.input as PageRequest
    expect(request.after).toBe(context.cursors[context.cursors.length - 1])
    expect(Object.values(request.query).every((value) => value.trim() !== "")).toBe(true)
    seen.add(request.after === undefined ? "first page" : "a later page")
    if (step.event.type === "query.change") expect(context.cursors).toEqual([undefined])
  } else expect(load).toBeUndefined()
  if (step.event.type === "page.next" && isIn(step.before, "Ready")) {
    expect(context.cursors).toEqual(before.page.next === null ? before.cursors : [...before.cursors, before.page.next])
  }
  if (isIn(step.after, "Failed")) expect(context.refusal?.message).toBe(refused.message)
  // An export asks for every row of the query (no cursor) and offers exactly what came back as the file.
  const exported = invokedWith(step, "export")
  if (entered(step, "Exporting")) {
    expect(exported?.input).toEqual({ query: Object.fromEntries(Object.entries(context.query).filter(([, value]) => value.trim() !== "")), after: undefined })
    seen.add("export")
  } else expect(exported).toBeUndefined()
  const saved = actionParams(step, "save")
  if (step.event.type === "xstate.done.actor.export") {
    expect(saved).toEqual([{ text: csv }])
    seen.add("saved")
  } else expect(saved).toEqual([])
  // A failed load or export says why in a toast, once.
  expect(actionParams(step, "toastFailure")).toEqual(callToasts(step, ["load", "export"]).map((a) => a.params))
}

describe("list machine (model-based)", () => {
  it("covers every state and transition: a query, pages forward and back, reloads, a refusal", () => {
    const coverage = replayPaths(machine, {
      input: { query: { q: "" } },
      outputs: { load: [first, last], export: [csv] },
      errors: { load: [refused], export: [refused] },
      actions: { save: () => {}, toastFailure: () => {} },
      events: {
        "query.change": [{ type: "query.change", field: "q", value: "asha" }, { type: "query.change", field: "q", value: "" }]
      },
      // Pages past the second look alike to the walk (the list goes on as long as the server says so).
      serialize: (s) => JSON.stringify([s.value, s.context.query, Math.min(s.context.cursors.length, 2), s.context.page.next]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...seen].sort()).toEqual(["a later page", "export", "first page", "saved"])
    recordFlows("desk list", "The desk's long lists (players, the audit trail, staff, markets): the query in context, pages by the server's cursor, reloaded when the desk hears its topic changed; the audit trail's export.", coverage)
  })
})

describe("list machine behaviour", () => {
  it("goes forward and back through pages by the cursors it was given", async () => {
    const asked: Array<PageRequest> = []
    const pages = [first, last]
    const actor = createActor(machine.provide({ actors: { load: fromPromise(async ({ input }: { input: PageRequest }) => (asked.push(input), input.after === undefined ? pages[0]! : pages[1]!)) } }), { input: { query: { status: "pending", player: " " } } }).start()
    await expect.poll(() => actor.getSnapshot().matches("Ready")).toBe(true)
    actor.send({ type: "page.next" })
    await expect.poll(() => actor.getSnapshot().context.page).toBe(last)
    actor.send({ type: "page.next" })
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    actor.send({ type: "page.previous" })
    await expect.poll(() => actor.getSnapshot().context.page).toBe(first)
    expect(asked).toEqual([
      { query: { status: "pending" }, after: undefined },
      { query: { status: "pending" }, after: "b" },
      { query: { status: "pending" }, after: undefined }
    ])
  })
})
