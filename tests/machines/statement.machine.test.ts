import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { DayRange } from "../../src/domain/ranges.ts"
import { type StatementRequest, statementMachine } from "../../src/machines/statement.machine.ts"
import type { Statement } from "../../src/schema/statements.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const week: DayRange = { start_date: "2026-01-01", end_date: "2026-01-07" }
const statement: Statement = {
  startDate: "2025-12-31T18:30:00.000Z",
  endDate: "2026-01-07T18:29:59.999Z",
  openingBalance: 0,
  closingBalance: 2000,
  rows: [{ _id: "t1", kind: "adjustment", description: "Welcome credit", reference: null, createdAt: "2026-01-02T00:00:00.000Z", credit: 2000, debit: 0, amount: 2000, balance: 2000 }],
  totals: { credit: 2000, debit: 0, net: 2000 }
}

describe("statement machine (model-based)", () => {
  it("covers every state and transition: which statement, its days, the bonus wallets, and reloads", () => {
    const coverage = replayPaths(statementMachine as never, {
      input: { view: "account", range: week },
      outputs: { loadStatement: [statement] },
      events: {
        "view.change": [{ type: "view.change", view: "payments" }],
        "range.change": [{ type: "range.change", range: { start_date: "2026-01-02", end_date: "2026-01-08" } }],
        "field.change": [{ type: "field.change", field: "includeBonus", value: true }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.view, s.context.range.start_date, s.context.includeBonus])
    })
    expectFullCoverage(coverage)
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
