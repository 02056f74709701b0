import { expect } from "@playwright/test"
import type { AnyEventObject } from "xstate"
import { type appMachine, REFRESH_SPREAD_MS } from "../../../../src/machines/app.machine.ts"
import { answerOf, type EventAdapter, type FlowAdapter, type FlowWorld, networkDown, takenTransitions } from "../adapter.ts"
import { catalogueEvent, createPlayer, openSignedIn, pauseClockAhead, sportsData, waitForApp } from "../../support.ts"

/**
 * The start-up pipeline: each call answered by the real server, or cut off by the network (the browser drops the
 * request: the one way a start-up call fails, short of a broken server). Every cut-off is arranged before the
 * page loads (`arrangeFirst`), so the path's steps only wait for the answers.
 */
const failure = { code: 0, message: "Network error", reason: "Unreachable" }

const done = answerOf<typeof appMachine>()

/** The walk's stand-ins for the start-up calls' answers (the real server's are checked on screen). */
const SITE = { siteTitle: "Khel", color: "#0b7a3e", faviconImg: "", logoImg: "" }
const ALL_SETTINGS = {
  settings: SITE,
  contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" },
  socials: [],
  compliance: { depositsOpen: true, blockedRegions: [] }
}
const USER = {
  id: "player", name: "Start-up Player", username: "player", mobileNo: "+919800000000", role: 4, wallet: 1,
  balance: 0, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "CODE", bets: []
} as const

const answered = (answer: AnyEventObject): EventAdapter => ({ samples: [answer], step: async () => {} })

const cutOff = (actor: string, path: string): EventAdapter => ({
  samples: [{ type: `xstate.error.actor.${actor}`, actorId: actor, error: failure } satisfies AnyEventObject],
  arrange: networkDown(`**/api/v1${path}`),
  step: async () => {}
})

const events: FlowAdapter["events"] = {
  "xstate.done.actor.loadSports": answered(done("loadSports", [])),
  "xstate.error.actor.loadSports": cutOff("loadSports", "/get-sports-data*"),
  "xstate.done.actor.loadAds": answered(done("loadAds", [])),
  "xstate.error.actor.loadAds": cutOff("loadAds", "/advertisement"),
  "xstate.done.actor.loadUser": answered(done("loadUser", USER)),
  "xstate.error.actor.loadUser": cutOff("loadUser", "/getUserData"),
  "xstate.done.actor.loadAppSettings": answered(done("loadAppSettings", SITE)),
  "xstate.error.actor.loadAppSettings": cutOff("loadAppSettings", "/app-settings"),
  "xstate.done.actor.loadAllSettings": answered(done("loadAllSettings", ALL_SETTINGS)),
  "xstate.error.actor.loadAllSettings": cutOff("loadAllSettings", "/get-all-app-settings")
}

const states: FlowAdapter["states"] = {
  // The preloader has gone, whatever failed: the site opens with what it has.
  "app.Ready": async ({ page }) => waitForApp(page)
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

/** The start-up a visitor's page has been through once the site shows: every call answered, the loader closed. */
const started = (user: ReadonlyArray<AnyEventObject> = []): ReadonlyArray<AnyEventObject> => [
  done("loadSports", []),
  done("loadAds", []),
  ...user,
  done("loadAppSettings", SITE),
  done("loadAllSettings", ALL_SETTINGS),
  { type: "xstate.after.closeLoader.app.Closing" }
]

/** A match far from its start: its page stays as it is while the catalogue changes elsewhere. */
const EVENT = "Delhi Capitals v Rajasthan Royals"

/**
 * The catalogue changes: the server's clock moves (TEST_CLOCK) to the start of the next scheduled event (a race, a
 * few minutes away), and the simulator starts it and tells every client on the odds channel with its next round
 * (every 5 s of real time).
 */
export const startNextEvent = async (request: FlowWorld["request"]) => {
  const next = Math.min(...(await sportsData(request)).flatMap((sport) => sport.leagues.flatMap((league) => league.events)).filter((e) => !e.inPlay).map((e) => Date.parse(e.date)))
  const clock = await request.get("/api/v1/test/clock")
  expect(clock.status()).toBe(200)
  const now = Date.parse((await clock.json()).data.now as string)
  const moved = await request.post("/api/v1/test/clock", { data: { seconds: Math.max(0, Math.ceil((next - now) / 1000) + 1) } })
  expect(moved.status()).toBe(200)
}

/** The catalogue changes (`startNextEvent`); the event page's `liveEvent` flow passes it to the app. */
const catalogueChanges = async ({ page, request }: FlowWorld) => {
  await startNextEvent(request)
  await expect.poll(() => takenTransitions(page, "app"), { timeout: 30_000 }).toContain("app.Ready.Idle --catalogue.changed[0]")
}

/**
 * A visitor on an event page when the catalogue changes: the app reloads the sports list a random moment later
 * (within 3 s, so every client does not reload at once). Playwright's clock stands still once the page shows, so the
 * reload waits for the path's clock step; the network is cut off before it for the failed reload.
 */
export const appCatalogue: FlowAdapter = {
  machine: "app",
  name: "app.catalogue",
  input: { token: undefined, theme: "dark" },
  prefix: started(),
  clock: true,
  delays: { refreshSpread: REFRESH_SPREAD_MS },
  start: async ({ page, request }) => {
    const { event, path } = await catalogueEvent(request, EVENT)
    await page.clock.install()
    await page.goto(path)
    await waitForApp(page)
    await expect(page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
    await pauseClockAhead(page)
  },
  events: {
    "catalogue.changed": { step: catalogueChanges },
    // The page's time runs on again: the answer is decoded on Effect's scheduler, which yields through timers.
    "xstate.done.actor.loadSports": { ...events["xstate.done.actor.loadSports"]!, step: async ({ page }) => page.clock.resume() },
    "xstate.error.actor.loadSports": { ...events["xstate.error.actor.loadSports"]!, step: async ({ page }) => page.clock.resume() }
  },
  states
}

/** The walk's stand-in for the event's bets flow (`bets.<eventId>`; no transition depends on the id). */
const BETS = "bets.event"

/**
 * A signed-in player on an event page, where two views share the event's bets flow (the markets' positions and the
 * right sidebar's My Bets), leaves for the home page: the first view to go closes its share, the last stops the flow.
 */
export const appFlows: FlowAdapter = {
  machine: "app",
  name: "app.flows",
  input: { token: "token", theme: "dark" },
  prefix: [
    ...started([done("loadUser", USER)]),
    ...[1, 2].map(() => ({ type: "flow.open", id: BETS, flow: "myBets", input: { eventId: "event" } }))
  ],
  start: async ({ page, request }) => {
    const player = await createPlayer(request, "Flows Player")
    const { path } = await catalogueEvent(request, EVENT)
    await openSignedIn(page, player.token, path)
    await expect(page.getByRole("heading", { name: "My Bets", exact: true })).toBeVisible()
    // Both views have opened the flow: the second open shared it.
    await expect.poll(() => takenTransitions(page, "app")).toContain("app --flow.open[0]")
  },
  events: {
    "flow.close": {
      samples: [{ type: "flow.close", id: BETS }],
      step: async ({ page }) => {
        if (new URL(page.url()).pathname === "/event") await page.getByRole("banner").getByRole("link", { name: /: home$/ }).click()
        await expect(page).toHaveURL(/\/$/)
      }
    }
  },
  states
}
