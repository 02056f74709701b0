import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, enqueueActions, fromPromise, getInitialSnapshot, getNextSnapshot, type SnapshotFrom } from "xstate"
import { appMachine, CLOSE_DELAY_MS, LOGIN_PATH, MARKS, MESSAGES, REFRESH_SPREAD_MS, type Route, TICK_CAP, TICK_STEP } from "../../src/machines/app.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import type { AllAppSettings, Banner, SiteSettings } from "../../src/schema/settings.ts"
import type { SportsData } from "../../src/schema/sports.ts"
import type { User } from "../../src/schema/user.ts"
import { quietConnectivity, quietSession, recordingSession } from "./fixtures.ts"
import { entered, expectFullCoverage, type ModelOptions, neverSettles, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, must, recorder, settled, type WalkStep } from "./walk.ts"

const user: User = {
  id: "u1", name: "Ravi", username: "ravi1234", mobileNo: "+919876543210", role: 4, wallet: 1,
  balance: 100, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "ABCDEFGH", bets: []
}

const sports: SportsData = [{ _id: "s1", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [] }]

const sessionEnded: Failure = { code: 401, message: "Your session has ended. Please log in again.", reason: "SessionEnded" }
const range = { start_date: "2026-01-01", end_date: "2026-01-07" }

/**
 * Flows open and close in any state; the walk tells apart none, one and
 * several views of a flow once the app is ready (during start-up the count
 * would multiply every step of the pipeline for nothing).
 */
type App = SnapshotFrom<typeof appMachine>

const flowsOf = (s: App) => (s.matches("Ready") ? Math.min(s.context.flows.withdrawal ?? 0, 2) : 0)

const sessionOf = (s: App) => s.children.session!.getSnapshot()

/** The pages the routing tells apart: /login, a referral link, both, and any other. */
const routes = {
  login: { type: "route.changed", pathname: "/login", search: "" },
  referral: { type: "route.changed", pathname: "/sports", search: "?referral_code=FRIEND01" },
  loginReferral: { type: "route.changed", pathname: "/login", search: "?tab=mobile&referral_code=FRIEND01" },
  home: { type: "route.changed", pathname: "/", search: "" }
} as const

/** The session signing in or out while the app runs (real session snapshots, as its child sends them). */
const visitor = getInitialSnapshot(quietSession, { token: undefined })
const signedIn = getNextSnapshot(quietSession, getInitialSnapshot(quietSession, { token: "t" }), { type: "session.loaded", user })
const sessionSays = (snapshot: typeof visitor) => ({ type: "xstate.snapshot.session" as const, snapshot })

const routeKey = (route: Route | undefined) =>
  route === undefined ? "none" : `${route.pathname === LOGIN_PATH ? "login" : "page"}${route.referralCode === undefined ? "" : "+code"}`

/**
 * What the routing's outcome depends on, told apart once the app is ready
 * and no flow is open (elsewhere it would multiply every other path).
 */
const routingOf = (s: App) => {
  if (!s.matches({ Ready: "Idle" }) || flowsOf(s) !== 0) return s.matches("Ready") && s.context.auth !== undefined
  const { restoring, signedIn } = s.context.session
  return [routeKey(s.context.route), restoring ? "restoring" : signedIn ? "in" : "out", s.context.auth !== undefined]
}

/** The steps of the pipeline up to and including the user's: the session may still be restoring there, never after. */
const beforeUserLoaded = ["Sports", "Ads", "User", "LoadingUser"] as const

/**
 * The bar only moves forward and stays under 95 % until the pipeline is
 * done; a closing or closed loader shows 100 % and 'Ready'; the preloader
 * shows while starting or closing; the loader closes late only after the
 * sports loaded; open flows are counted from 1; the session, always there,
 * restores only until the user step and never without a token.
 */
export const invariants = (s: App) => {
  const { progress, flows, message } = s.context
  must(progress >= 0, "progress is never negative", progress)
  if (s.matches({ Starting: { Pipeline: "Done" } }) || s.matches("Closing") || s.matches("Ready")) must(progress === MARKS.done && message === MESSAGES.done, "done shows 100 % and 'Ready'", [progress, message])
  else must(progress <= TICK_CAP, "under 95 % until done", progress)
  must(s.hasTag("preloader") === (s.matches("Starting") || s.matches("Closing")), "the preloader shows while starting or closing", s.value)
  if (s.matches("Closing")) must(s.context.sportsLoaded, "the loader closes late only after the sports loaded")
  must(Object.values(flows).every((count) => Number.isInteger(count) && count >= 1), "flows are counted from 1", flows)
  must(s.context.theme === "dark" || s.context.theme === "light", "the theme is dark or light", s.context.theme)
  if (sessionOf(s).matches("Restoring")) {
    must(s.context.token !== undefined, "the session restores only a stored token")
    must(beforeUserLoaded.some((step) => s.matches({ Starting: { Pipeline: step } })), "the session restores only until the user step", s.value)
  }
}

const authenticated = "GET /api/v1/get-sports-data-authenticate"
const asVisitor = "GET /api/v1/get-sports-data"
/** SPEC section 6: the authenticated sports call while a token is stored (the session's, here). */
const sportsCall = (s: App): Effect => ({ kind: "call", endpoint: sessionOf(s).context.token === undefined ? asVisitor : authenticated })
const call = (endpoint: string): Effect => ({ kind: "call", endpoint })
const logged = (step: string): Effect => ({ kind: "do", name: "log failure", params: { step } })

const home: Effect = { kind: "do", name: "navigate", params: { to: "/", replace: true } }

/** The routing outcomes the walk saw: each must have happened at least once. */
const routed = new Set<string>()

/**
 * What the URL asks (SPEC section 3 and issue 33): nothing while the stored
 * session restores; then, when the page or the session changed, a referral
 * code opens Register with it for a visitor (even at /login), /login opens
 * Sign in for a visitor and sends a signed-in player home, in place of
 * /login; a modal already open stays as it is. Closing a modal at /login
 * leaves it the same way.
 */
const routing = (step: WalkStep<App>): Array<Effect> => {
  const { before, event, after } = step
  if (!before) return []
  const route = after.context.route
  const { restoring, signedIn } = after.context.session
  const was = before.context.route
  const moved = was?.pathname !== route?.pathname || was?.referralCode !== route?.referralCode ||
    before.context.session.restoring !== restoring || before.context.session.signedIn !== signedIn
  if (event.type === "route.changed") must(route?.pathname === event.pathname, "the app keeps the router's page", [route, event])
  if (event.type === "auth.closed") {
    must(after.context.auth === undefined, "a closed chain leaves no modal", after.context.auth)
    if (before.context.route?.pathname !== LOGIN_PATH) return []
    routed.add("closed at /login: home")
    return [home]
  }
  const asked = event.type === "auth.open" && before.context.auth === undefined ? { step: event.step, referralCode: event.referralCode } : undefined
  let opened: typeof after.context.auth = asked
  const out: Array<Effect> = []
  if (moved && !restoring && route) {
    if (route.referralCode !== undefined && !signedIn) {
      opened = { step: "register", referralCode: route.referralCode }
      routed.add(route.pathname === LOGIN_PATH ? "referral at /login: register" : "referral: register")
    } else if (route.pathname === LOGIN_PATH && signedIn) {
      out.push(home)
      routed.add("signed in at /login: home")
    } else if (route.pathname === LOGIN_PATH) {
      opened = { step: "login", referralCode: undefined }
      routed.add("visitor at /login: sign in")
    }
    if (restoring !== before.context.session.restoring && opened !== undefined) routed.add("restored, then routed")
  }
  // A modal already showing keeps its step.
  expect(after.context.auth, `the modal after ${event.type}`).toEqual(before.context.auth ?? opened)
  return out
}

/** SPEC sections 4, 8 and 9: the start-up calls in order, failures only logged, the user handed to the session, settings applied, the theme applied and kept, flows spawned once. */
const effects = (step: WalkStep<App>): Array<Effect> => {
  const { before, event, after } = step
  const out: Array<Effect> = []
  if (before) must(after.context.progress >= before.context.progress, "the bar only moves forward")
  if (event.type === "xstate.init") {
    out.push({ kind: "do", name: "apply theme", params: { theme: after.context.theme } })
    if (after.context.token === undefined) out.push({ kind: "do", name: "socket token", params: { token: undefined } })
  }
  if (event.type.startsWith("xstate.after.tick")) {
    const expected = Math.min(before!.context.progress + TICK_STEP, Math.max(before!.context.progress, TICK_CAP))
    must(after.context.progress === expected, `a tick adds 2 % up to 95 % (${expected})`, after.context.progress)
  }
  // Each step of the pipeline calls once it starts.
  const pipeline = (state: "Sports" | "Ads" | "LoadingUser" | "AppSettings" | "AllSettings") => entered(step, `Starting.Pipeline.${state}`) || (state === "Sports" && event.type === "xstate.error.actor.loadSports" && after.matches({ Starting: { Pipeline: "Sports" } }))
  if (pipeline("Sports")) out.push(sportsCall(after))
  if (pipeline("Ads")) out.push(call("GET /api/v1/advertisement"))
  if (pipeline("LoadingUser")) out.push(call("GET /api/v1/getUserData"))
  if (pipeline("AppSettings")) out.push(call("GET /api/v1/app-settings"))
  if (pipeline("AllSettings")) out.push(call("GET /api/v1/get-all-app-settings"))
  const starting = before?.matches("Starting")
  switch (settled(step, "loadSports")) {
    case "error":
      // A refused stored token: the session is told there is nothing to restore (it signs out), and the sports load as a visitor.
      if (after.matches({ Starting: { Pipeline: "Sports" } })) out.push({ kind: "do", name: "socket token", params: { token: undefined } })
      else out.push(logged(starting ? "sports" : "sports refresh"))
      break
    case "done":
      expect(after.context.sports).toEqual(event.output)
  }
  if (settled(step, "loadAds") === "error") out.push(logged("ads"))
  if (settled(step, "loadUser") === "done") {
    // The session becomes signed in with the loaded user, and the app hears it.
    expect(sessionOf(after).matches("LoggedIn")).toBe(true)
    expect(after.context.session).toEqual({ restoring: false, signedIn: true })
    expect(sessionOf(after).context.user).toEqual(event.output)
    out.push({ kind: "do", name: "socket token", params: { token: after.context.token } }, { kind: "watch", name: "user channel", input: { userId: event.output.id } })
  }
  if (settled(step, "loadUser") === "error") out.push(logged("user"), { kind: "do", name: "socket token", params: { token: undefined } })
  if (settled(step, "loadAppSettings") === "done") out.push({ kind: "do", name: "apply site settings", params: { settings: event.output } })
  if (settled(step, "loadAppSettings") === "error") out.push(logged("app settings"))
  if (settled(step, "loadAllSettings") === "error") out.push(logged("all settings"))
  if (event.type.startsWith("xstate.after.refreshSpread")) out.push(sportsCall(after))
  if (event.type === "theme.toggle") {
    expect(after.context.theme).not.toBe(before!.context.theme)
    out.push({ kind: "do", name: "apply theme", params: { theme: after.context.theme } })
  }
  // The network is back: started offline, the page loads again; otherwise the sports and the player's balances do.
  if (event.type === "network.restored") {
    if (!before!.context.sportsLoaded) out.push({ kind: "do", name: "reload page" })
    else {
      out.push(sportsCall(after))
      if (sessionOf(before!).matches("LoggedIn")) out.push(call("GET /api/v1/getUserData"))
    }
  }
  if (event.type === "flow.open") {
    const count = before!.context.flows[event.id]
    expect(after.context.flows[event.id]).toBe((count ?? 0) + 1)
    if (count === undefined) out.push({ kind: "do", name: "spawn flow", params: { id: event.id, flow: event.flow, input: event.input } })
  }
  out.push(...routing(step))
  return out
}

const world = recorder()

const model = {
  world,
  actors: {
    session: recordingSession(world),
    // The root reads the stored token; in the walk's system the session holds it.
    loadSports: world.call((_: unknown, system) => (system.get("session")!.getSnapshot().context.token === undefined ? asVisitor : authenticated)),
    loadAds: world.call("GET /api/v1/advertisement"),
    loadUser: world.call("GET /api/v1/getUserData"),
    loadAppSettings: world.call("GET /api/v1/app-settings"),
    loadAllSettings: world.call("GET /api/v1/get-all-app-settings")
  },
  actions: {
    logFailure: (_: unknown, params: { step: string }) => world.record({ kind: "do", name: "log failure", params: { step: params.step } }),
    applyTheme: world.act("apply theme"),
    applySiteSettings: world.act("apply site settings"),
    spawnFlow: world.act("spawn flow"),
    reloadPage: world.act("reload page"),
    navigate: world.act("navigate")
  },
  invariants,
  effects,
  errors: { loadSports: [sessionEnded, { code: 0, message: "offline", reason: "Unreachable" }] },
  events: {
    "auth.open": [{ type: "auth.open", step: "register", referralCode: "FRIEND01" }],
    "flow.open": [{ type: "flow.open", id: "withdrawal", flow: "withdrawal", input: { range } }],
    "flow.close": [{ type: "flow.close", id: "withdrawal" }],
    "route.changed": Object.values(routes),
    "xstate.snapshot.session": [sessionSays(visitor), sessionSays(signedIn)]
  },
  input: { token: "t", theme: "dark" as const },
  outputs: {
    loadSports: [sports],
    loadAds: [[]],
    loadUser: [user],
    loadAppSettings: [{ siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }],
    loadAllSettings: [{ settings: { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [] }]
  },
  // The simulated tick changes progress every 50 ms; what matters to the walk is whether it is capped.
  serialize: (s) =>
    JSON.stringify([s.value, s.context.progress + 2 >= TICK_CAP, s.context.sportsLoaded, s.context.token !== undefined, flowsOf(s), routingOf(s)]),
  from: [
    // 46 ticks bring the bar to 92 %, so the walk sees the tick that caps it at 95 %.
    { label: "start, 46 ticks in (92 %)", prefix: Array.from({ length: 46 }, () => ({ type: "xstate.after.tick.app.Starting.Progress.Ticking" })) },
    // No stored token: the user step is skipped.
    { label: "start without a stored token", input: { token: undefined, theme: "light" as const } },
    // The URL's requests wait until the stored session is restored (or refused).
    { label: "at /login, a stored token", prefix: [routes.login] },
    { label: "at a referral link, a stored token", prefix: [routes.referral] },
    { label: "at /login?referral_code=…, no token", input: { token: undefined, theme: "dark" as const }, prefix: [routes.loginReferral] }
  ]
} satisfies ModelOptions<typeof appMachine>

describe("app machine (model-based)", () => {
  it("reaches every state and takes every transition, checking the start-up calls, the session, the theme and the flows at every step", () => {
    // A fixed spread, so the walk and the real actor wait the same time.
    const coverage = replayPaths(appMachine.provide({ delays: { refreshSpread: REFRESH_SPREAD_MS } }), { ...model, invariants, effects })
    expect(coverage.paths.length).toBeGreaterThan(5)
    expectFullCoverage(coverage)
    expect([...routed].sort()).toEqual([
      "closed at /login: home",
      "referral at /login: register",
      "referral: register",
      "restored, then routed",
      "signed in at /login: home",
      "visitor at /login: sign in"
    ])
    recordFlows("app", "The root: start-up behind the preloader (a stale token loads as a visitor) and its tick, sports refresh (catalogue change, network back), theme, views' flows (counted per id), and what the URL asks (/login, a referral link) once the session is known.", coverage)
  })
})

describe("app machine timings and marks", () => {
  const settle = <T>(value: T) => fromPromise(async () => value)
  const boom = fromPromise<SportsData>(async () => {
    throw new Error("offline")
  })
  const stubs = {
    session: quietSession,
    connectivity: quietConnectivity,
    loadSports: settle(sports),
    loadAds: settle<ReadonlyArray<Banner>>([]),
    loadUser: settle<User>(user),
    loadAppSettings: settle<SiteSettings>({ siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }),
    loadAllSettings: settle<AllAppSettings>({ settings: { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [], compliance: { depositsOpen: true, blockedRegions: [] } })
  }
  const quiet = { logFailure: () => {}, applyTheme: () => {}, applySiteSettings: () => {}, spawnFlow: () => {} }

  it("reaches 100 %, then closes the loader 1 s later", async () => {
    vi.useFakeTimers()
    const actor = createActor(appMachine.provide({ actors: stubs, actions: quiet }), { input: { token: undefined, theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(actor.getSnapshot().context.progress).toBe(MARKS.done)
    expect(actor.getSnapshot().matches("Closing")).toBe(true)
    expect(actor.getSnapshot().hasTag("preloader")).toBe(true)
    await vi.advanceTimersByTimeAsync(CLOSE_DELAY_MS - 20)
    expect(actor.getSnapshot().matches("Closing")).toBe(true)
    await vi.advanceTimersByTimeAsync(20)
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    vi.useRealTimers()
  })

  it("closes at once when the sports load fails, and keeps loading the rest", async () => {
    vi.useFakeTimers()
    const failures: Array<string> = []
    const actor = createActor(
      appMachine.provide({ actors: { ...stubs, loadSports: boom }, actions: { ...quiet, logFailure: (_: unknown, p: { step: string }) => void failures.push(p.step) } }),
      { input: { token: undefined, theme: "dark" } }
    ).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    expect(actor.getSnapshot().context.settings?.siteTitle).toBe("Khel")
    expect(failures).toEqual(["sports"])
    vi.useRealTimers()
  })

  it("loads the user only when a token is stored", async () => {
    let asked = 0
    const loadUser = fromPromise<User>(async () => {
      asked++
      return user
    })
    for (const token of [undefined, "t"]) {
      const actor = createActor(appMachine.provide({ actors: { ...stubs, loadUser }, actions: quiet }), { input: { token, theme: "dark" } }).start()
      await new Promise((resolve) => setTimeout(resolve, 20))
      actor.stop()
    }
    expect(asked).toBe(1)
  })

  it("ticks 2 % every 50 ms and never passes 95 % on its own", async () => {
    vi.useFakeTimers()
    const loading = { ...stubs, loadSports: neverSettles(), loadAds: neverSettles(), loadUser: neverSettles(), loadAppSettings: neverSettles(), loadAllSettings: neverSettles() }
    const actor = createActor(appMachine.provide({ actors: loading, actions: quiet }), { input: { token: undefined, theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(50 * 5)
    expect(actor.getSnapshot().context.progress).toBe(10)
    await vi.advanceTimersByTimeAsync(50 * 100)
    expect(actor.getSnapshot().context.progress).toBe(TICK_CAP)
    actor.stop()
    vi.useRealTimers()
  })

  it("toggles the theme and applies it", () => {
    const applied: Array<string> = []
    const actor = createActor(appMachine.provide({ actors: stubs, actions: { ...quiet, applyTheme: (_: unknown, p: { theme: string }) => void applied.push(p.theme) } }), {
      input: { token: undefined, theme: "dark" }
    }).start()
    actor.send({ type: "theme.toggle" })
    actor.send({ type: "theme.toggle" })
    expect(applied).toEqual(["dark", "light", "dark"])
    actor.stop()
  })

  it("loads the sports as a visitor when the stored token was refused, and tells the session there is nothing to restore", async () => {
    vi.useFakeTimers()
    let calls = 0
    const loadSports = fromPromise<SportsData>(async () => {
      if (calls++ === 0) throw sessionEnded
      return sports
    })
    const loadUser = vi.fn(async () => user)
    const actor = createActor(appMachine.provide({ actors: { ...stubs, loadSports, loadUser: fromPromise(loadUser) }, actions: quiet }), { input: { token: "stale", theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(calls).toBe(2)
    expect(actor.getSnapshot().context).toMatchObject({ token: undefined, sports, sportsLoaded: true })
    expect(loadUser).not.toHaveBeenCalled()
    expect(actor.system.get("session").getSnapshot().value).toBe("LoggedOut")
    actor.stop()
    vi.useRealTimers()
  })

  it("refreshes the sports once, a random moment within 3 s after the catalogue changed", async () => {
    vi.useFakeTimers()
    let loads = 0
    const counted = fromPromise<SportsData>(async () => (loads++, sports))
    const actor = createActor(appMachine.provide({ actors: { ...stubs, loadSports: counted }, actions: quiet }), { input: { token: undefined, theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(CLOSE_DELAY_MS + 10)
    expect(loads).toBe(1)
    actor.send({ type: "catalogue.changed" })
    actor.send({ type: "catalogue.changed" })
    await vi.advanceTimersByTimeAsync(REFRESH_SPREAD_MS + 10)
    expect(loads).toBe(2)
    expect(actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
    actor.stop()
    vi.useRealTimers()
  })
})

describe("app machine: the network coming back", () => {
  const quiet = { logFailure: () => {}, applyTheme: () => {}, applySiteSettings: () => {}, spawnFlow: () => {} }
  const settings: SiteSettings = { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }
  const world = (loadSports: ReturnType<typeof fromPromise<SportsData>>) => ({
    session: quietSession,
    connectivity: quietConnectivity,
    loadSports,
    loadAds: fromPromise(async () => [] as ReadonlyArray<Banner>),
    loadUser: fromPromise(async () => user),
    loadAppSettings: fromPromise(async () => settings),
    loadAllSettings: fromPromise<AllAppSettings>(async () => ({ settings, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [], compliance: { depositsOpen: true, blockedRegions: [] } }))
  })

  it("loads the sports and the player's user again after a gap, and never reloads the page that has them", async () => {
    vi.useFakeTimers()
    let loads = 0
    const reloadPage = vi.fn()
    const actor = createActor(appMachine.provide({ actors: world(fromPromise(async () => (loads++, sports))), actions: { ...quiet, reloadPage } }), { input: { token: "t", theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(CLOSE_DELAY_MS + 10)
    const session = actor.system.get("session")
    expect(session.getSnapshot().matches("LoggedIn")).toBe(true)
    actor.send({ type: "network.restored" })
    // At once, not after the catalogue's spread: the player has been waiting.
    expect(actor.getSnapshot().matches({ Ready: "Refreshing" })).toBe(true)
    expect(session.getSnapshot().matches({ LoggedIn: "Refreshing" })).toBe(true)
    await vi.advanceTimersByTimeAsync(10)
    expect(loads).toBe(2)
    expect(reloadPage).not.toHaveBeenCalled()
    actor.stop()
    vi.useRealTimers()
  })

  it("reloads the page when it started without a network (it has nothing of its own to show)", async () => {
    vi.useFakeTimers()
    const reloadPage = vi.fn()
    const offline = fromPromise<SportsData>(async () => {
      throw { code: 0, message: "offline", reason: "Unreachable" } satisfies Failure
    })
    const actor = createActor(appMachine.provide({ actors: world(offline), actions: { ...quiet, reloadPage } }), { input: { token: undefined, theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(10)
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    expect(reloadPage).not.toHaveBeenCalled()
    actor.send({ type: "network.restored" })
    expect(reloadPage).toHaveBeenCalledTimes(1)
    actor.stop()
    vi.useRealTimers()
  })
})

describe("app machine: the flows of the one actor system", () => {
  const quiet = { logFailure: () => {}, applyTheme: () => {}, applySiteSettings: () => {} }
  const loading = {
    session: quietSession,
    connectivity: quietConnectivity,
    loadSports: neverSettles(),
    loadAds: neverSettles(),
    loadUser: neverSettles(),
    loadAppSettings: neverSettles(),
    loadAllSettings: neverSettles()
  }
  const page = createMachine({ id: "page", context: ({ input }: { input: { range: typeof range } }) => ({ range: input.range }) })

  it("spawns a flow on its first open with its id as system id, shares it between views, and stops it with the last close", () => {
    const spawned: Array<string> = []
    const app = createActor(
      appMachine.provide({
        actors: loading,
        actions: {
          ...quiet,
          spawnFlow: enqueueActions(({ enqueue }, params: { id: string; input: unknown }) => {
            spawned.push(params.id)
            const spawn = enqueue.spawnChild as unknown as (logic: typeof page, options: { id: string; systemId: string; input: unknown }) => void
            spawn(page, { id: params.id, systemId: params.id, input: params.input })
          })
        }
      }),
      { input: { token: undefined, theme: "dark" } }
    ).start()
    app.send({ type: "flow.open", id: "withdrawal", flow: "withdrawal", input: { range } })
    app.send({ type: "flow.open", id: "withdrawal", flow: "withdrawal", input: { range } })
    expect(spawned).toEqual(["withdrawal"])
    const child = app.system.get("withdrawal")
    expect(child.getSnapshot().context).toEqual({ range })
    expect(app.getSnapshot().context.flows).toEqual({ withdrawal: 2 })
    app.send({ type: "flow.close", id: "withdrawal" })
    expect(app.system.get("withdrawal")).toBe(child)
    app.send({ type: "flow.close", id: "withdrawal" })
    expect(app.system.get("withdrawal")).toBeUndefined()
    expect(child.getSnapshot().status).toBe("stopped")
    expect(app.getSnapshot().context.flows).toEqual({})
    // Closing what is not open changes nothing; opening again starts afresh.
    app.send({ type: "flow.close", id: "withdrawal" })
    app.send({ type: "flow.open", id: "withdrawal", flow: "withdrawal", input: { range } })
    expect(app.system.get("withdrawal")).not.toBe(child)
    app.stop()
  })

  it("fails loudly when a world-touching action was not provided", () => {
    const app = createActor(appMachine.provide({ actors: loading, actions: { logFailure: () => {}, applySiteSettings: () => {}, spawnFlow: () => {} } }), {
      input: { token: undefined, theme: "dark" }
    })
    const errors: Array<unknown> = []
    app.subscribe({ error: (error) => errors.push(error) })
    app.start()
    expect(String(errors[0])).toContain("app: action 'applyTheme' must be provided")
  })

  it("keeps the sign-in modal a view asked for until the chain closes", () => {
    const app = createActor(appMachine.provide({ actors: loading, actions: { ...quiet, spawnFlow: () => {} } }), { input: { token: undefined, theme: "dark" } }).start()
    app.send({ type: "auth.open", step: "register", referralCode: "FRIEND01" })
    app.send({ type: "auth.open", step: "login" })
    expect(app.getSnapshot().context.auth).toEqual({ step: "register", referralCode: "FRIEND01" })
    app.send({ type: "auth.closed" })
    expect(app.getSnapshot().context.auth).toBeUndefined()
    app.send({ type: "auth.open", step: "login" })
    expect(app.getSnapshot().context.auth).toEqual({ step: "login", referralCode: undefined })
    app.stop()
  })
})
