import { expect } from "@playwright/test"
import type { depositMachine } from "../../../../src/machines/deposit.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { openSignedIn } from "../../support.ts"
import { dataUrl, dropped, fileDeposit, player, RANGE, screenshotPng, searchEarlierRange, toast } from "./money.ts"

const done = answerOf<typeof depositMachine>()

const HISTORY = "**/api/v1/admin-deposit-request**"
const viewer = ({ page }: FlowWorld) => page.getByTestId("screenshot-viewer")

/**
 * /deposit for a player who has filed one screenshot-only deposit (through the API): the list of requests for a
 * date range, and the Uploaded Screenshot viewer of the filed request. The form is the depositForm machine's.
 */
export const deposit: FlowAdapter = {
  machine: "deposit",
  input: { range: RANGE },
  start: async (world) => {
    await fileDeposit(world, 500, { screenshot: dataUrl(await screenshotPng()) })
    await openSignedIn(world.page, await player(world), "/deposit")
    await expect(world.page.getByRole("heading", { name: "Deposit requests" })).toBeVisible()
  },
  events: {
    "range.change": {
      samples: [{ type: "range.change", range: { start_date: "2025-12-25", end_date: "2026-01-07" } }],
      step: searchEarlierRange
    },
    "stored.view": {
      samples: [{ type: "stored.view", screenshotId: "screenshot" }],
      step: async ({ page }) => page.getByTestId("deposit-history").getByRole("button", { name: "View" }).click()
    },
    // The real server's answers.
    "xstate.done.actor.loadHistory": {
      samples: [done("loadHistory", [])],
      step: async ({ page }) => expect(page.getByTestId("deposit-history").getByRole("row").nth(1)).toContainText("₹500.00")
    },
    // Only a dropped network fails these reads: the server lists a player's own requests and screenshots.
    "xstate.error.actor.loadHistory": {
      samples: [{ type: "xstate.error.actor.loadHistory", actorId: "loadHistory", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", HISTORY),
      step: async (world) => expect(toast(world, "error", "could not reach the server")).toBeVisible()
    },
    "xstate.error.actor.loadScreenshot": {
      samples: [{ type: "xstate.error.actor.loadScreenshot", actorId: "loadScreenshot", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", "**/api/v1/uploaded-screenshot/**"),
      step: async (world) => {
        await expect(toast(world, "error", "could not reach the server")).toBeVisible()
        await expect(viewer(world)).toBeHidden()
      }
    }
  },
  states: {
    "deposit.StoredScreenshot.Closed": async (world) => expect(viewer(world)).toBeHidden(),
    "deposit.StoredScreenshot.Showing": async (world) => expect(viewer(world).getByRole("img")).toBeVisible()
  }
}
