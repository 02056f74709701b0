import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { DayRange } from "../../src/domain/ranges.ts"
import { profitRows, type StatementContext, type StatementRequest, statementMachine } from "../../src/machines/statement.machine.ts"
import { type Statement, StatementQuery } from "../../src/schema/statements.ts"
import { expectFullCoverage, invokedWith, recordFlows, replayPaths, type Step } from "./harness.ts"

const week: DayRange = { start_date: "2026-01-01", end_date: "2026-01-07" }
const statement: Statement = {
  startDate: "2025-12-31T18:30:00.000Z",
  endDate: "2026-01-07T18:29:59.999Z",
  openingBalance: 0,
  closingBalance: 2000,
  rows: [{ _id: "t1", kind: "adjustment", title: "Credit", description: "Welcome credit", reference: null, createdAt: "2026-01-02T00:00:00.000Z", credit: 2000, debit: 0, amount: 2000, balance: 2000 }],
  totals: { credit: 2000, debit: 0, net: 2000 }
}

/** The queries the walk sent, so the request check is known to have run for each. */
const asked = new Set<string>()

const checkStep = (step: Step) => {
  const before: StatementContext = step.before.context
  const context: StatementContext = step.after.context
  // The last statement stays on screen while the next one loads; a new one replaces it.
  expect(context.statement).toEqual(step.event.type === "xstate.done.actor.loadStatement" ? step.event.output : before.statement)
  // Every change of the query, and money moving, asks again with start_date, end_date and isChecked (SPEC section 7).
  const load = invokedWith(step, "loadStatement")
  if (["xstate.init", "view.change", "range.change", "field.change", "balances.changed"].includes(step.event.type)) {
    const request = load?.input as StatementRequest
    expect(request).toEqual({ view: context.view, query: { ...context.range, isChecked: context.includeBonus ? "true" : "false" } })
    expect(Schema.decodeUnknownSync(StatementQuery)(request.query)).toEqual(request.query)
    asked.add(`${request.view}:${request.query.isChecked}`)
  } else expect(load).toBeUndefined()
  // A failed load says why in a toast, once.
  expect(step.actions).toEqual(step.event.type === "xstate.error.actor.loadStatement" ? [{ type: "toastFailure", params: { error: step.event.error } }] : [])
}

describe("statement machine (model-based)", () => {
  it("covers every state and transition: which statement, its days, the bonus wallets, and reloads", () => {
    const coverage = replayPaths(statementMachine, {
      input: { view: "account", range: week },
      outputs: { loadStatement: [statement] },
      actions: { toastFailure: () => {} },
      events: {
        "view.change": [{ type: "view.change", view: "payments" }],
        "range.change": [{ type: "range.change", range: { start_date: "2026-01-02", end_date: "2026-01-08" } }],
        "field.change": [{ type: "field.change", field: "includeBonus", value: true }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.view, s.context.range.start_date, s.context.includeBonus]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...asked].sort()).toEqual(["account:false", "account:true", "payments:false", "payments:true"])
    recordFlows(
      "statement",
      "/statements (account statement, deposits and withdrawals) and /profit-loss (results): the query — which statement, the days, whether the bonus wallets count (isChecked) — in context; each change and each movement of the player's money loads it again.",
      coverage
    )
  })
})

describe("statement machine behaviour", () => {
  it("asks for the statement with start_date, end_date and isChecked, and again for each change of the query", async () => {
    const requests: Array<StatementRequest> = []
    const actor = createActor(
      statementMachine.provide({ actors: { loadStatement: fromPromise(async ({ input }: { input: StatementRequest }) => (requests.push(input), statement)) } }),
      { input: { view: "account", range: week } }
    ).start()
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    expect(actor.getSnapshot().context.statement).toEqual(statement)
    expect(profitRows(actor.getSnapshot())).toEqual([{ row: statement.rows[0], running: 2000 }])
    actor.send({ type: "view.change", view: "payments" })
    actor.send({ type: "field.change", field: "includeBonus", value: true })
    const next = { start_date: "2026-02-01", end_date: "2026-02-07" }
    actor.send({ type: "range.change", range: next })
    // Each change aborts the load before it: only the last query is answered.
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    expect(requests).toEqual([
      { view: "account", query: { ...week, isChecked: "false" } },
      { view: "payments", query: { ...week, isChecked: "false" } },
      { view: "payments", query: { ...week, isChecked: "true" } },
      { view: "payments", query: { ...next, isChecked: "true" } }
    ])
    actor.send({ type: "balances.changed" })
    await vi.waitFor(() => expect(requests).toHaveLength(5))
  })
})
