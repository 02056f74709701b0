import { expect } from "@playwright/test"
import type { AnyEventObject, AnyMachineSnapshot } from "xstate"
import type { DepositFormContext, depositFormMachine } from "../../../../src/machines/depositForm.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { freshUtr } from "../../../http.ts"
import { openSignedIn } from "../../support.ts"
import { dialog, dropped, fileDeposit, player, restored, screenshotPng, toast } from "./money.ts"

const done = answerOf<typeof depositFormMachine>()

const ACCOUNTS = "**/api/v1/admin-account-details"
/** The walk's stand-in for the operator's UPI account the player pays into (the first card). */
const ACCOUNT = { _id: "upi", type: "upi" as const, accountNumber: "khel@upi", accountHolderName: "Khel" }
const PICKED = { dataUrl: "data:image/png;base64,", name: "payment.png", type: "image/png", size: 1000 }
/** A file the picker lets through when the player chooses "All files": not an image the form takes. */
const NOT_AN_IMAGE = { dataUrl: "data:application/pdf;base64,", name: "receipt.pdf", type: "application/pdf", size: 1000 }

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as DepositFormContext
const editing = (snapshot: AnyMachineSnapshot) => snapshot.matches({ Modal: { Open: "Editing" } })
const modal = (world: FlowWorld) => dialog(world).filter({ has: world.page.getByRole("heading", { name: "Deposit by UPI" }) })
const amount = (world: FlowWorld) => modal(world).getByRole("textbox", { name: "Amount" })

/** The next field to fill on the open form: the amount, then a reference (unless a screenshot proves the payment). */
const nextField = (snapshot: AnyMachineSnapshot): ReadonlyArray<AnyEventObject> => {
  const { form, screenshot } = contextOf(snapshot)
  if (!editing(snapshot)) return []
  if (form.amount === "") return [{ type: "field.change", field: "amount", value: "1000" }]
  if (form.txnRef === "" && !screenshot) return [{ type: "field.change", field: "txnRef", value: "412345678901" }]
  return []
}

/**
 * The Deposit by UPI modal on /deposit, for a fresh player: the operator's accounts as the page lists them, the
 * form's fields and screenshot, and the real server's answer to the request.
 */
export const depositForm: FlowAdapter = {
  machine: "depositForm",
  start: async (world) => {
    await openSignedIn(world.page, await player(world), "/deposit")
    await expect(world.page.getByRole("heading", { name: "Pay to one of these accounts, then tell us the amount" })).toBeVisible()
  },
  events: {
    "accounts.reload": {
      // Offered on screen only when the accounts could not be loaded.
      samples: (snapshot) => (snapshot.matches({ Accounts: "Failed" }) ? [{ type: "accounts.reload" }] : []),
      step: async (world) => {
        await restored(world, ACCOUNTS)
        await world.page.getByRole("button", { name: "Try again" }).click()
      }
    },
    "deposit.open": {
      samples: [{ type: "deposit.open", accountId: ACCOUNT._id }],
      step: async ({ page }) => page.getByTestId("deposit-account-upi").first().getByRole("button", { name: "Deposit by UPI" }).click()
    },
    "deposit.close": { step: async (world) => world.page.keyboard.press("Escape") },
    "field.change": {
      samples: nextField,
      step: async (world, event) =>
        event.field === "amount" ? amount(world).fill(String(event.value)) : modal(world).getByRole("textbox", { name: "Transaction reference (UTR)" }).fill(String(event.value))
    },
    "screenshot.select": {
      samples: (snapshot) => (editing(snapshot) ? [{ type: "screenshot.select", screenshot: PICKED }, { type: "screenshot.select", screenshot: NOT_AN_IMAGE }] : []),
      step: async (world, event) => {
        const input = modal(world).getByTestId("screenshot-input")
        if ((event.screenshot as typeof PICKED).type === "image/png") {
          await input.setInputFiles({ name: "payment.png", mimeType: "image/png", buffer: await screenshotPng() })
          await expect(modal(world).getByTestId("screenshot-name")).toHaveText("payment.png")
        } else {
          await input.setInputFiles({ name: "receipt.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n") })
          await expect(toast(world, "warning", "Please upload a PNG, JPEG or WebP image.")).toBeVisible()
        }
      }
    },
    "screenshot.clear": {
      samples: (snapshot) => (editing(snapshot) && contextOf(snapshot).screenshot ? [{ type: "screenshot.clear" }] : []),
      step: async (world) => {
        await modal(world).getByRole("button", { name: "Remove screenshot" }).click()
        await expect(modal(world).getByTestId("screenshot-name")).toBeHidden()
      }
    },
    "deposit.submit": { step: async (world) => modal(world).getByRole("button", { name: "Confirm" }).click() },
    // The real server's answers: the steps before decide which.
    "xstate.done.actor.loadAccounts": {
      samples: [done("loadAccounts", [ACCOUNT])],
      step: async ({ page }) => expect(page.getByTestId("deposit-account-upi").first()).toBeVisible()
    },
    // The server lists its open accounts to any player: only a dropped network fails the read.
    "xstate.error.actor.loadAccounts": {
      samples: [{ type: "xstate.error.actor.loadAccounts", actorId: "loadAccounts", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", ACCOUNTS),
      step: async ({ page }) => expect(page.getByText("The deposit accounts could not be loaded.")).toBeVisible()
    },
    "xstate.done.actor.submit": {
      samples: [done("submit", {
        data: { _id: "deposit", amount: 500, accountId: ACCOUNT._id, type: "upi", txnRef: null, screenshot: null, status: "pending", remark: null, createdAt: "2026-01-01T00:00:00.000Z", decidedAt: null },
        message: "Deposit request submitted"
      })],
      step: async (world) => expect(toast(world, "success", "Deposit request submitted")).toBeVisible()
    },
    // The player already has as many requests waiting as the server takes (3, filed from another tab): refused.
    "xstate.error.actor.submit": {
      samples: [{ type: "xstate.error.actor.submit", actorId: "submit", error: { code: 429, message: "waiting", reason: "QuotaExceeded" } }],
      arrange: async (world) => {
        for (const n of [1, 2, 3]) await fileDeposit(world, 100, { txnRef: freshUtr() })
      },
      step: async (world) => {
        // Once, as a toast over the modal: the form repeats it nowhere.
        await expect(toast(world, "warning", /deposit requests waiting for approval/)).toBeVisible()
        await expect(modal(world).locator("[data-dialog-body]").getByText(/deposit requests waiting for approval/)).toHaveCount(0)
        await expect(amount(world)).toHaveValue("1000")
      }
    }
  },
  states: {
    "depositForm.Accounts.Failed": async ({ page }) => expect(page.getByRole("button", { name: "Try again" })).toBeVisible(),
    "depositForm.Modal.Closed": async ({ page }) => expect(page.getByTestId("deposit-modal")).toBeHidden(),
    "depositForm.Modal.Open.Editing": async (world) => expect(modal(world).getByRole("button", { name: "Confirm" })).toBeEnabled()
  }
}
