import { expect } from "@playwright/test"
import type { AnyEventObject, AnyMachineSnapshot } from "xstate"
import type { PayoutAccountsContext, payoutAccountsMachine } from "../../../../src/machines/payoutAccounts.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { openSignedIn } from "../../support.ts"
import { asPlayer, dialog, dropped, player, toast } from "./money.ts"

const done = answerOf<typeof payoutAccountsMachine>()

const ACCOUNTS = "**/api/v1/account-details"
/** The walk's stand-in for the UPI id typed: the player's own (`upi` in the world, made from their number). */
const UPI = "flow@okaxis"

const upiOf = (world: FlowWorld) => `flow${world.data.national}@okaxis`

/** The next field to fill on the open Add UPI form. */
const nextField = (snapshot: AnyMachineSnapshot): ReadonlyArray<AnyEventObject> => {
  const { form } = snapshot.context as PayoutAccountsContext
  if (!snapshot.matches({ Modal: { Open: "Editing" } })) return []
  if (form.accountNumber === "") return [{ type: "field.change", field: "accountNumber", value: UPI }]
  if (form.accountHolderName === "") return [{ type: "field.change", field: "accountHolderName", value: "Flow Player" }]
  return []
}

const LABELS: Record<string, string> = { accountNumber: "UPI ID", accountHolderName: "Account Holder Name" }

/** The payout accounts on /withdrawal for a fresh player: the list, and the Add UPI modal with its save. */
export const payoutAccounts: FlowAdapter = {
  machine: "payoutAccounts",
  start: async (world) => {
    await openSignedIn(world.page, await player(world), "/withdrawal")
    await expect(world.page.getByRole("heading", { name: "Your accounts" })).toBeVisible()
  },
  events: {
    "account.add": {
      samples: [{ type: "account.add", kind: "upi" }],
      step: async ({ page }) => page.getByRole("button", { name: "Add UPI" }).click()
    },
    "modal.close": { step: async ({ page }) => page.keyboard.press("Escape") },
    "field.change": {
      samples: nextField,
      step: async (world, event) => dialog(world).getByLabel(LABELS[String(event.field)]!).fill(event.value === UPI ? upiOf(world) : String(event.value))
    },
    "account.save": { step: async (world) => dialog(world).getByRole("button", { name: "Add" }).click() },
    // The real server's answers: the steps before decide which.
    "xstate.done.actor.loadAccounts": {
      samples: [done("loadAccounts", [])],
      step: async ({ page }) => expect(page.getByText("Add a UPI id or a bank account to withdraw to.")).toBeVisible()
    },
    // The server lists a player's own accounts: only a dropped network fails the read.
    "xstate.error.actor.loadAccounts": {
      samples: [{ type: "xstate.error.actor.loadAccounts", actorId: "loadAccounts", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", ACCOUNTS),
      step: async (world) => expect(toast(world, "error", "could not reach the server")).toBeVisible()
    },
    "xstate.done.actor.saveAccount": {
      samples: [done("saveAccount", { data: { _id: "upi", type: "upi", accountNumber: "flow@okaxis", accountHolderName: "Flow Player" }, message: "Your UPI has been added" })],
      step: async (world) => expect(toast(world, "success", "Your UPI has been added")).toBeVisible()
    },
    // The player added this UPI id already (from another tab): the server refuses the duplicate.
    "xstate.error.actor.saveAccount": {
      samples: [{ type: "xstate.error.actor.saveAccount", actorId: "saveAccount", error: { code: 409, message: "duplicate", reason: "Conflict" } }],
      arrange: async (world) => {
        await asPlayer(world, "post", "/api/v1/account-details", { type: "upi", accountNumber: upiOf(world), accountHolderName: "Flow Player" })
      },
      step: async (world) => {
        await expect(toast(world, "warning", "You have already added this UPI id.")).toBeVisible()
        await expect(dialog(world).getByLabel("UPI ID")).toHaveValue(upiOf(world))
      }
    }
  },
  states: {
    "payoutAccounts.Modal.Closed": async ({ page }) => expect(page.getByTestId("account-modal")).toBeHidden(),
    "payoutAccounts.Modal.Open.Editing": async (world) => expect(dialog(world).getByRole("heading", { name: "Add UPI" })).toBeVisible()
  }
}
