import { expect } from "@playwright/test"
import type { resultsMachine } from "../../../../src/machines/results.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { settleARace } from "../../results-support.ts"
import { restored } from "./money.ts"

const done = answerOf<typeof resultsMachine>()

const RESULTS = "**/api/v1/results*"
const page1 = { rows: [], next: "1.first" }

/**
 * The page's calls go to the real server one row a page (the request is given `limit=1`), so two settled markets
 * make a next page; a dropped network fails a first page or a next one.
 */
const onePerPage = async ({ page }: FlowWorld) => {
  await page.route(RESULTS, (route) => {
    const url = new URL(route.request().url())
    url.searchParams.set("limit", "1")
    return route.fallback({ url: url.toString() })
  })
}
const dropped = (next: boolean) => async ({ page }: FlowWorld) => {
  await page.route(RESULTS, (route) =>
    new URL(route.request().url()).searchParams.has("after") === next ? route.abort("internetdisconnected") : route.fallback())
}
const shown = ({ page }: FlowWorld) => page.getByTestId("results")

/** /results for a visitor, with at least two markets settled. */
export const results: FlowAdapter = {
  machine: "results",
  start: async (world) => {
    const listed = (await (await world.request.get("/api/v1/results")).json()).data as { rows: Array<unknown> }
    for (let i = listed.rows.length; i < 2; i++) await settleARace(world.request)
    await onePerPage(world)
    await world.page.goto("/results")
  },
  events: {
    "results.sport": { samples: [{ type: "results.sport", sport: null }], step: async ({ page }) => page.getByRole("button", { name: "All", exact: true }).click() },
    "results.more": { step: async ({ page }) => page.getByRole("button", { name: "Show more" }).click() },
    "results.reload": {
      step: async (world) => {
        await restored(world, RESULTS)
        await onePerPage(world)
        await world.page.getByRole("button", { name: "Try again" }).click()
      }
    },
    "xstate.done.actor.loadResults": {
      samples: [done("loadResults", page1)],
      step: async (world) => expect(shown(world).getByTestId("result")).toHaveCount(1)
    },
    "xstate.error.actor.loadResults": {
      samples: [{ type: "xstate.error.actor.loadResults", actorId: "loadResults", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped(false),
      step: async ({ page }) => expect(page.getByText("Results could not be loaded.")).toBeVisible()
    },
    "xstate.done.actor.loadMore": {
      samples: [done("loadMore", page1)],
      step: async (world) => expect(shown(world).getByTestId("result")).toHaveCount(2)
    },
    "xstate.error.actor.loadMore": {
      samples: [{ type: "xstate.error.actor.loadMore", actorId: "loadMore", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped(true),
      step: async ({ page }) => expect(page.getByTestId("toast-error").last()).toBeVisible()
    }
  },
  states: {
    "results.Ready": async (world) => {
      await expect(shown(world)).toBeVisible()
      await expect(world.page.getByRole("button", { name: "Show more" })).toBeEnabled()
    },
    "results.Failed": async ({ page }) => expect(page.getByRole("button", { name: "Try again" })).toBeVisible()
  }
}
