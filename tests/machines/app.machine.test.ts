import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { appMachine, CLOSE_DELAY_MS, MARKS, TICK_CAP } from "../../src/machines/app.machine.ts"
import type { AllAppSettings, Banner, SiteSettings } from "../../src/schema/settings.ts"
import type { SportsData } from "../../src/schema/sports.ts"
import type { User } from "../../src/schema/user.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const user: User = {
  id: "u1", name: "Ravi", username: "ravi1234", mobileNo: "+919876543210", role: 4, wallet: 1,
  balance: 100, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "ABCDEFGH", bets: []
}

const sports: SportsData = [{ _id: "s1", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [] }]

const model = {
  actions: { logFailure: vi.fn(), applyTheme: vi.fn(), applySiteSettings: vi.fn() },
  input: { token: "t", theme: "dark" as const },
  outputs: {
    loadSports: [sports],
    loadAds: [[]],
    loadUser: [user],
    loadAppSettings: [{ siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }],
    loadAllSettings: [{ settings: { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [] }]
  },
  // The simulated tick changes progress every 50 ms; what matters to the walk is whether it is capped.
  serialize: (s: { value: unknown; context: { progress: number; sportsLoaded: boolean; token?: string } }) =>
    JSON.stringify([s.value, s.context.progress + 2 >= TICK_CAP, s.context.sportsLoaded, s.context.token !== undefined]),
  from: [
    // 46 ticks bring the bar to 92 %, so the walk sees the tick that caps it at 95 %.
    { label: "start, 46 ticks in (92 %)", prefix: Array.from({ length: 46 }, () => ({ type: "xstate.after.tick.app.Starting.Progress.Ticking" })) },
    // No stored token: the user step is skipped.
    { label: "start without a stored token", input: { token: undefined, theme: "light" as const } }
  ]
}

describe("app machine (model-based)", () => {
  it("reaches every state and takes every transition, and the real actor agrees with the graph at each step", () => {
    const coverage = replayPaths(appMachine as never, { ...model, serialize: model.serialize as never })
    expect(coverage.paths.length).toBeGreaterThan(5)
    expectFullCoverage(coverage)
    recordFlows("app", "Start-up pipeline behind the preloader (sports, ads, user with a stored token, app settings, all settings), the simulated progress tick, the loader closing, sports refresh and the theme.", coverage)
  })
})

describe("app machine timings and marks", () => {
  const settle = <T>(value: T) => fromPromise(async () => value)
  const boom = fromPromise<SportsData>(async () => {
    throw new Error("offline")
  })
  const stubs = {
    loadSports: settle(sports),
    loadAds: settle<ReadonlyArray<Banner>>([]),
    loadUser: settle<User>(user),
    loadAppSettings: settle<SiteSettings>({ siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }),
    loadAllSettings: settle<AllAppSettings>({ settings: { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [], compliance: { depositsOpen: true, blockedRegions: [] } })
  }
  const quiet = { logFailure: () => {}, applyTheme: () => {}, applySiteSettings: () => {} }

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
    const pending = fromPromise<never>(() => new Promise(() => {}))
    const loading = { loadSports: pending, loadAds: pending, loadUser: pending, loadAppSettings: pending, loadAllSettings: pending }
    const actor = createActor(appMachine.provide({ actors: loading as never, actions: quiet }), { input: { token: undefined, theme: "dark" } }).start()
    await vi.advanceTimersByTimeAsync(50 * 5)
    expect(actor.getSnapshot().context.progress).toBe(10)
    await vi.advanceTimersByTimeAsync(50 * 100)
    expect(actor.getSnapshot().context.progress).toBe(TICK_CAP)
    actor.stop()
    vi.useRealTimers()
  })

  it("toggles the theme and applies it", () => {
    const applied: Array<string> = []
    const actor = createActor(appMachine.provide({ actions: { ...quiet, applyTheme: (_: unknown, p: { theme: string }) => void applied.push(p.theme) } }), {
      input: { token: undefined, theme: "dark" }
    }).start()
    actor.send({ type: "theme.toggle" })
    actor.send({ type: "theme.toggle" })
    expect(applied).toEqual(["dark", "light", "dark"])
    actor.stop()
  })
})
