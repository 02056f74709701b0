import { expect } from "@playwright/test"
import type { AnyEventObject } from "xstate"
import { type EventAdapter, type FlowAdapter, type FlowWorld, networkDown } from "../adapter.ts"
import { createPlayer } from "../../support.ts"

/**
 * The start-up pipeline: each call answered by the real server, or cut off by the network (the browser drops the
 * request: the one way a start-up call fails, short of a broken server). Every cut-off is arranged before the
 * page loads (`arrangeFirst`), so the path's steps only wait for the answers.
 */
const failure = { code: 0, message: "Network error", reason: "Unreachable" }

const answered = (actor: string, output: unknown): EventAdapter => ({
  samples: [{ type: `xstate.done.actor.${actor}`, actorId: actor, output }],
  step: async () => {}
})

const cutOff = (actor: string, path: string): EventAdapter => ({
  samples: [{ type: `xstate.error.actor.${actor}`, actorId: actor, error: failure } satisfies AnyEventObject],
  arrange: networkDown(`**/api/v1${path}`),
  step: async () => {}
})

const events: FlowAdapter["events"] = {
  "xstate.done.actor.loadSports": answered("loadSports", []),
  "xstate.error.actor.loadSports": cutOff("loadSports", "/get-sports-data*"),
  "xstate.done.actor.loadAds": answered("loadAds", []),
  "xstate.error.actor.loadAds": cutOff("loadAds", "/advertisement"),
  "xstate.done.actor.loadUser": answered("loadUser", { id: "player", wallet: 1 }),
  "xstate.error.actor.loadUser": cutOff("loadUser", "/getUserData"),
  "xstate.done.actor.loadAppSettings": answered("loadAppSettings", undefined),
  "xstate.error.actor.loadAppSettings": cutOff("loadAppSettings", "/app-settings"),
  "xstate.done.actor.loadAllSettings": answered("loadAllSettings", undefined),
  "xstate.error.actor.loadAllSettings": cutOff("loadAllSettings", "/get-all-app-settings")
}

const states: FlowAdapter["states"] = {
  // The preloader has gone, whatever failed: the site opens with what it has.
  "app.Ready": async ({ page }) => expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
}

const open = async ({ page }: FlowWorld) => {
  await page.goto("/")
}

/** A visitor opens the site. */
export const app: FlowAdapter = {
  machine: "app",
  input: { token: undefined, theme: "dark" },
  arrangeFirst: true,
  start: open,
  events,
  states
}

/** A player with a stored token opens the site (the pipeline loads the user too). */
export const appSignedIn: FlowAdapter = {
  machine: "app",
  name: "app.signedIn",
  input: { token: "token", theme: "dark" },
  arrangeFirst: true,
  start: async (world) => {
    const player = await createPlayer(world.request, "Start-up Player")
    await world.page.addInitScript((token) => localStorage.setItem("token", token), player.token)
    await open(world)
  },
  events,
  states
}

