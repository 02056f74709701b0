import { expect } from "@playwright/test"
import type { statementMachine } from "../../../../src/machines/statement.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld, nextCallDropped } from "../adapter.ts"
import { openSignedIn } from "../../support.ts"
import { credit, player, RANGE, searchEarlierRange, toast } from "./money.ts"

const done = answerOf<typeof statementMachine>()

const STATEMENTS = /\/api\/v1\/(account-statement|transaction)\?/
const summary = ({ page }: FlowWorld) => page.getByTestId("statement-summary")
const tab = ({ page }: FlowWorld, view: unknown) => page.getByRole("tab", { name: view === "payments" ? "Deposits & withdrawals" : "Account statement" })
const NO_STATEMENT = { startDate: RANGE.start_date, endDate: RANGE.end_date, openingBalance: 0, closingBalance: 0, rows: [], totals: { credit: 0, debit: 0, net: 0 } }

/** /statements for a fresh player: the account statement and the deposits and withdrawals, over a range of days. */
export const statement: FlowAdapter = {
  machine: "statement",
  input: { view: "account", range: RANGE },
  start: async (world) => {
    await openSignedIn(world.page, await player(world, "Statement Player"), "/statements")
  },
  events: {
    "view.change": {
      samples: [{ type: "view.change", view: "payments" }, { type: "view.change", view: "account" }],
      step: async (world, event) => tab(world, event.view).click()
    },
    "range.change": { samples: [{ type: "range.change", range: RANGE }], step: searchEarlierRange },
    // The box turns the bonus wallets on or off, whichever it is not.
    "field.change": {
      samples: (snapshot) => [{ type: "field.change", field: "includeBonus", value: !snapshot.context.includeBonus }],
      step: async ({ page }, event) => page.getByRole("checkbox", { name: "Include bonus wallets" }).setChecked(event.value === true)
    },
    // Money moves: the operator credits the player, whose statement loads again.
    "balances.changed": { step: async (world) => credit(world, 100) },
    "xstate.done.actor.loadStatement": {
      samples: [done("loadStatement", NO_STATEMENT)],
      step: async (world) => expect(summary(world)).toBeVisible()
    },
    "xstate.error.actor.loadStatement": {
      samples: [{ type: "xstate.error.actor.loadStatement", actorId: "loadStatement", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: nextCallDropped(STATEMENTS),
      step: async (world) => expect(toast(world, "error")).toBeVisible()
    }
  },
  states: {
    "statement.Ready": async (world) => expect(summary(world)).toBeVisible(),
    "statement.Failed": async (world) => expect(toast(world, "error")).toBeVisible()
  }
}
