import { expect } from "@playwright/test"
import type { racingMachine } from "../../../../src/machines/racing.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld, nextCallDropped, takenTransitions } from "../adapter.ts"
import { startNextEvent } from "./app.ts"

const done = answerOf<typeof racingMachine>()

const RACING = "**/api/v1/racing"
const tryAgain = ({ page }: FlowWorld) => page.getByRole("button", { name: "Try again" })

/** /racing for a visitor: the races load, fail when the network drops, and load again when races start. */
export const racing: FlowAdapter = {
  machine: "racing",
  start: async ({ page }) => {
    await page.goto("/racing")
  },
  events: {
    // From a failure, the player's Try again; from the races shown, the odds channel saying a race started.
    "racing.reload": {
      step: async (world) => {
        if (await tryAgain(world).isVisible()) return tryAgain(world).click()
        await startNextEvent(world.request)
        await expect.poll(() => takenTransitions(world.page, "racing"), { timeout: 30_000 }).toContain("racing.Ready --racing.reload[0]")
      }
    },
    "xstate.done.actor.loadRacing": {
      samples: [done("loadRacing", [])],
      step: async ({ page }) => expect(page.getByRole("navigation", { name: "Racing" })).toBeVisible()
    },
    "xstate.error.actor.loadRacing": {
      samples: [{ type: "xstate.error.actor.loadRacing", actorId: "loadRacing", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: nextCallDropped(RACING),
      step: async (world) => expect(tryAgain(world)).toBeVisible()
    }
  },
  states: {
    "racing.Ready": async ({ page }) => expect(page.getByRole("navigation", { name: "Racing" })).toBeVisible(),
    "racing.Failed": async (world) => expect(tryAgain(world)).toBeVisible()
  }
}
