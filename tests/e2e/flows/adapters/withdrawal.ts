import { expect } from "@playwright/test"
import type { WithdrawalContext, withdrawalMachine } from "../../../../src/machines/withdrawal.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { openSignedIn } from "../../support.ts"
import { asPlayer, credit, dropped, player, RANGE, searchEarlierRange, toast } from "./money.ts"

const done = answerOf<typeof withdrawalMachine>()

const REQUESTS = "**/api/v1/withdrawal-request**"
/** The walk's stand-in for the player's one payout account (listed first, so chosen by default). */
const ACCOUNT = { _id: "upi", type: "upi" as const, accountNumber: "flow@okaxis", accountHolderName: "Flow Player" }

const form = ({ page }: FlowWorld) => page.getByRole("form", { name: "Withdraw" })

/**
 * /withdrawal for a player with ₹1,000 and a UPI payout account (both made through the API): the form, its
 * request to the real server, and the list of requests for a date range. The accounts are the payoutAccounts
 * machine's; the page has listed them when the walk starts.
 */
export const withdrawal: FlowAdapter = {
  machine: "withdrawal",
  input: { range: RANGE },
  prefix: [{ type: "xstate.snapshot.payoutAccounts", snapshot: { context: { accounts: [ACCOUNT] } } }],
  start: async (world) => {
    await credit(world, 1000)
    await asPlayer(world, "post", "/api/v1/account-details", { type: "upi", accountNumber: `flow${world.data.national}@okaxis`, accountHolderName: "Flow Player" })
    await openSignedIn(world.page, await player(world), "/withdrawal")
    await expect(world.page.getByTestId("account-upi")).toBeVisible()
    await expect(form(world).getByLabel("To account")).toBeEnabled()
  },
  events: {
    "field.change": {
      samples: (snapshot) => ((snapshot.context as WithdrawalContext).form.amount === "" ? [{ type: "field.change", field: "amount", value: "300" }] : []),
      step: async (world, event) => form(world).getByRole("textbox", { name: "Amount" }).fill(String(event.value))
    },
    "withdraw.submit": {
      step: async (world) => form(world).getByRole("button", { name: "Withdraw" }).click()
    },
    "range.change": {
      samples: [{ type: "range.change", range: { start_date: "2025-12-25", end_date: "2026-01-07" } }],
      step: searchEarlierRange
    },
    // The real server's answers: the steps before decide which.
    "xstate.done.actor.submit": {
      samples: [done("submit", {
        data: { _id: "withdrawal", amount: 500, accountId: ACCOUNT._id, account: ACCOUNT, status: "pending", remark: null, createdAt: "2026-01-01T00:00:00.000Z", decidedAt: null },
        message: "Withdrawal requested"
      })],
      step: async (world) => expect(toast(world, "success", "Withdrawal requested")).toBeVisible()
    },
    // No answer came back (the network dropped the request): the form keeps its key for the retry.
    "xstate.error.actor.submit": {
      samples: [{ type: "xstate.error.actor.submit", actorId: "submit", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("POST", REQUESTS),
      step: async (world) => {
        await expect(toast(world, "error", "could not reach the server")).toBeVisible()
        await expect(form(world).getByRole("button", { name: "Withdraw" })).toBeEnabled()
      }
    },
    "xstate.done.actor.loadHistory": {
      samples: [done("loadHistory", [])],
      step: async ({ page }) => expect(page.getByTestId("withdrawal-history")).toBeVisible()
    },
    // The server lists a player's own requests: only a dropped network fails the read.
    "xstate.error.actor.loadHistory": {
      samples: [{ type: "xstate.error.actor.loadHistory", actorId: "loadHistory", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", REQUESTS),
      step: async (world) => expect(toast(world, "error", "could not reach the server")).toBeVisible()
    }
  },
  states: {
    "withdrawal.Form.Ready.Editing": async (world) => expect(form(world).getByRole("button", { name: "Withdraw" })).toBeEnabled(),
    "withdrawal.Form.Ready.Refused": async (world) => expect(form(world).getByRole("textbox", { name: "Amount" })).toHaveValue("300")
  }
}
