import { assign, fromPromise, setup, type SnapshotFrom } from "xstate"
import type { DayRange } from "../domain/ranges.ts"
import { withRunningProfit } from "../domain/statements.ts"
import type { Failure } from "../schema/errors.ts"
import type { Statement, StatementQuery } from "../schema/statements.ts"
import { watchBalances } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * A statement of the player's ledger for a range of days: the account
 * statement and the deposits and withdrawals on /statements (two tabs), the
 * results on /profit-loss. The query — which statement, the days, whether the
 * bonus wallets count — lives here; each change loads it again, as does money
 * moving (a bet settled, a deposit approved). Leaving Loading aborts the
 * request; the last statement stays on screen while the next one loads.
 */
export type StatementView = "account" | "payments" | "results"

export interface StatementContext {
  readonly view: StatementView
  readonly range: DayRange
  /** The bonus and referral wallets count with the main balance (the `isChecked` of SPEC section 7). */
  readonly includeBonus: boolean
  readonly statement: Statement | undefined
}

export type StatementEvent =
  | { type: "view.change"; view: StatementView }
  | { type: "range.change"; range: DayRange }
  | { type: "field.change"; field: "includeBonus"; value: boolean }
  | { type: "balances.changed" }

export interface StatementInput {
  readonly view: StatementView
  /** The first range (the last 7 India days when the page opens). */
  readonly range: DayRange
}

/** A statement as it is asked for: which one, and its query (SPEC section 7: start_date, end_date, isChecked). */
export interface StatementRequest {
  readonly view: StatementView
  readonly query: Required<StatementQuery>
}

const requestOf = (context: StatementContext): StatementRequest => ({
  view: context.view,
  query: { ...context.range, isChecked: context.includeBonus ? "true" : "false" }
})

const statementSetup = setup({
  types: {
    context: {} as StatementContext,
    events: {} as StatementEvent | CallFailed<"loadStatement">,
    input: {} as StatementInput
  },
  actors: {
    watchBalances,
    loadStatement: fromPromise<Statement, StatementRequest>(unprovided("statement", "loadStatement"))
  },
  actions: {
    /** Why the statement did not load, as a toast (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("statement", "toastFailure")
  }
})

export const statementMachine = statementSetup.createMachine({
  id: "statement",
  context: ({ input }) => ({ view: input.view, range: input.range, includeBonus: false, statement: undefined }),
  invoke: { id: "watchBalances", src: "watchBalances" },
  ...listRegion(statementSetup, {
    on: {
      "view.change": { target: ".Loading", actions: assign({ view: ({ event }) => event.view }) },
      "range.change": { target: ".Loading", actions: assign({ range: ({ event }) => event.range }) },
      "field.change": { target: ".Loading", actions: assign({ includeBonus: ({ event }) => event.value }) },
      "balances.changed": ".Loading"
    },
    load: { id: "loadStatement", src: "loadStatement", input: ({ context }) => requestOf(context) },
    done: { statement: ({ event }) => event.output },
    fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }
  })
})

/** The results on /profit-loss, newest first, each with the period's running P/L (`src/domain/statements.ts`). */
export const profitRows = (snapshot: SnapshotFrom<typeof statementMachine>) => withRunningProfit(snapshot.context.statement?.rows ?? [])
