import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { type AnyActorLogic, createActor, createMachine, fromCallback, fromPromise } from "xstate"
import { validateChangePassword, validateLogin, validateOtp, validateReset, validateSignUp } from "../../src/domain/validation.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { createRecorder, decodeEventLog, type EventLog, LOG_VERSION, type PageLog, statesOf } from "../../src/root/eventLog.ts"
import { createRedactor, isSecretField } from "../../src/root/redact.ts"
import { appIn, loadFlowsOf, replayPage, type World } from "../../src/root/replay.ts"
import { player } from "../machines/fixtures.ts"

describe("redaction", () => {
  it("knows secrets by their field name, however it is spelt", () => {
    for (const name of ["password", "confirmPassword", "confirm_password", "old_password", "oldPassword", "otp", "token", "accessToken", "Authorization", "digits", "apiKey", "client_secret"]) {
      expect(isSecretField(name), name).toBe(true)
    }
    for (const name of ["type", "username", "mobileNo", "mobile_no", "field", "value", "amount", "otpCountdown", "tokens", "reason", "message", "code"]) {
      expect(isSecretField(name), name).toBe(false)
    }
  })

  it("replaces secrets at any depth, and the value of a form event that names one; nothing else changes", () => {
    const redact = createRedactor()
    const event = {
      type: "login.submit",
      form: { by: "username", username: "demo", mobileNo: "", password: "Demo@1234", remember: true },
      nested: [{ token: "eyJhbGciOi.abc" }, { meta: { confirm_password: "Demo@1234" } }]
    }
    const out = redact(event)
    expect(out.form.password).not.toBe("Demo@1234")
    expect(out.nested[0]!.token).not.toContain("eyJ")
    expect(out.form).toMatchObject({ by: "username", username: "demo", mobileNo: "", remember: true })
    expect(out.type).toBe("login.submit")
    expect(JSON.stringify(out)).not.toContain("Demo@1234")

    const field = redact({ type: "field.change", field: "password", value: "Monsoon#Tiffin42" })
    expect(field.value).not.toBe("Monsoon#Tiffin42")
    expect(redact({ type: "field.change", field: "amount", value: "500" }).value).toBe("500")
    expect(redact({ type: "field.change", form: "otp", field: "digits", value: ["4", "8", "2", "1"] }).value.join("")).not.toBe("4821")
    // A machine's context holding the forms (the sign-in modals').
    const forms = redact({ forms: { otp: { digits: ["4", "8", "2", "1"] }, reset: { otp: "4821", password: "Brand#Mango1234" }, login: { username: "demo" } } }).forms
    expect(JSON.stringify(forms)).not.toMatch(/4821|Brand#Mango1234|"4","8"/)
    expect(forms.login.username).toBe("demo")
    // The input is left as it was.
    expect(event.form.password).toBe("Demo@1234")
  })

  it("keeps what the form rules read: empty or not, length, kind of each character, equality", () => {
    const redact = createRedactor()
    const { password, confirmPassword, other, empty } = redact({ password: "Demo@1234", confirmPassword: "Demo@1234", other: "Demo@1235", empty: "" })
    expect(password).toMatch(/^[A-Z][a-z]{3}[^A-Za-z0-9][0-9]{4}$/)
    expect(confirmPassword).toBe(password)
    expect(other).not.toBe(password)
    expect(empty).toBe("")
    // Digits stay digits, so the OTP boxes stay valid or invalid alike.
    expect(redact({ digits: ["4", "8", "2", "1"] }).digits.every((d) => /^\d$/.test(d))).toBe(true)
    expect(redact({ digits: ["4", "x", "", "1"] }).digits.map((d) => /^\d$/.test(d))).toEqual([true, false, false, true])
  })

  it("gives SPEC section 5's rules the same verdict on redacted forms as on the real ones", () => {
    const forms = [
      { name: "Ravi", mobileNo: "9876543210", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" },
      { name: "Ravi", mobileNo: "9876543210", password: "short", confirmPassword: "short", ageConfirmed: true, region: "MH" },
      { name: "Ravi", mobileNo: "9876543210", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin43", ageConfirmed: true, region: "MH" },
      { name: "Ravi", mobileNo: "9876543210", password: "", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }
    ]
    for (const form of forms) {
      const redacted = createRedactor()(form)
      expect(validateSignUp(redacted)).toEqual(validateSignUp(form))
      expect(validateLogin({ by: "phone", username: "", ...redacted })).toEqual(validateLogin({ by: "phone", username: "", ...form }))
      const reset = { otp: "4821", password: form.password, confirmPassword: form.confirmPassword }
      expect(validateReset(createRedactor()(reset))).toEqual(validateReset(reset))
      const change = { oldPassword: "Demo@1234", password: form.password, confirmPassword: form.confirmPassword }
      expect(validateChangePassword(createRedactor()(change))).toEqual(validateChangePassword(change))
    }
    for (const digits of [["4", "8", "2", "1"], ["4", "8", "2", ""], ["4", "8", "2", "a"]]) {
      expect(validateOtp(createRedactor()({ digits }).digits)).toEqual(validateOtp(digits))
    }
  })

  it("turns an Error into its name and message (JSON would make it {})", () => {
    const out = createRedactor()({ error: new TypeError("Failed to fetch") })
    expect(JSON.parse(JSON.stringify(out))).toEqual({ error: { name: "TypeError", message: "Failed to fetch" } })
  })
})

describe("the recorder", () => {
  const toggle = createMachine({
    id: "toggle",
    initial: "Off",
    states: {
      Off: { on: { flip: "On" } },
      On: { after: { 1000: "Off" }, invoke: { id: "save", src: fromPromise(async () => "saved") } }
    }
  })

  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it("names actors by path, marks what timers deliver and what came from outside, and keeps state values", async () => {
    const recorder = createRecorder({ capacity: 100 })
    const actor = createActor(toggle, { inspect: recorder.inspect, clock: recorder.clock }).start()
    actor.send({ type: "flip" })
    await vi.advanceTimersByTimeAsync(1000)
    actor.send({ type: "flip" })
    await vi.advanceTimersByTimeAsync(0)
    const page = recorder.page("/")
    expect(page.entries.filter((e) => e.kind === "actor").map((e) => e.actor)).toEqual(["toggle", "toggle/save", "toggle/save#2"])
    const events = page.entries.flatMap((e) => (e.kind === "event" ? [e] : []))
    expect(events.filter((e) => e.event.type === "flip").every((e) => e.from === undefined && e.to === "toggle")).toBe(true)
    expect(events.find((e) => e.event.type.startsWith("xstate.after."))).toMatchObject({ to: "toggle", from: "toggle", timer: true })
    expect(events.find((e) => e.event.type === "xstate.done.actor.save")).toMatchObject({ to: "toggle", from: "toggle/save", event: { output: "saved" } })
    expect(events.filter((e) => e.timer).length).toBe(1)
    expect(statesOf(page.entries).get("toggle")).toEqual(["Off", "On", "Off", "On"])
    expect(statesOf(page.entries).get("toggle/save")).toEqual(["active", "done"])
  })

  it("keeps the newest entries in a ring buffer and counts what it let go", () => {
    const recorder = createRecorder({ capacity: 5 })
    const actor = createActor(toggle, { inspect: recorder.inspect, clock: recorder.clock }).start()
    for (let i = 0; i < 10; i++) actor.send({ type: "ignored", i })
    const entries = recorder.entries()
    expect(entries).toHaveLength(5)
    expect(recorder.dropped()).toBeGreaterThan(0)
    expect(entries.map((e) => (e.kind === "event" ? e.event.i : undefined))).toEqual([5, 6, 7, 8, 9])
  })

  it("exports a versioned log that reads back, with secrets redacted; anything else is refused", () => {
    const recorder = createRecorder({ capacity: 100 })
    createActor(toggle, { inspect: recorder.inspect, clock: recorder.clock }).start().send({ type: "flip", password: "Demo@1234" })
    const log: EventLog = { version: LOG_VERSION, app: "khel", exportedAt: new Date().toISOString(), pages: [recorder.page("/")] }
    const json = JSON.stringify(log)
    expect(json).not.toContain("Demo@1234")
    expect(decodeEventLog(JSON.parse(json))).toEqual(log)
    expect(() => decodeEventLog({ ...log, version: 2 })).toThrow()
    expect(() => decodeEventLog({ version: 1, app: "khel", exportedAt: "", pages: [{ url: "/", startedAt: "", dropped: 0, entries: [{ kind: "event" }] }] })).toThrow()
  })
})

describe("the replay", () => {
  const sports = [{ _id: "s1", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [] }]
  const settings = { siteTitle: "Khel", color: "#f5b301", faviconImg: "", logoImg: "" }
  const offline: Failure = { code: 0, message: "You are offline", reason: "Unreachable" }

  /** A world answering like the server: the start-up calls, a login, the withdrawal page's lists; the user's socket event once signed in. */
  const world = (answers: Record<string, unknown> = {}): World => {
    const all: Record<string, unknown> = {
      loadSports: sports,
      loadAds: [],
      loadAppSettings: settings,
      loadAllSettings: { settings, contacts: { helpline: "", whatsapp: "", email: "", supportChat: "" }, socials: [] },
      login: { token: "tok-secret-1", user: player },
      fetchUser: player,
      loadHistory: [],
      loadAccounts: [],
      ...answers
    }
    return (name: string): AnyActorLogic => {
      if (name === "userChannel") {
        return fromCallback(({ sendBack }) => {
          const timer = setTimeout(() => sendBack({ type: "user.changed" }), 5000)
          return () => clearTimeout(timer)
        })
      }
      if (name in all) {
        return fromPromise(async () => {
          await new Promise((resolve) => setTimeout(resolve, 20))
          const answer = all[name]
          if (answer === offline) throw offline
          return answer
        })
      }
      return fromCallback(() => () => {})
    }
  }

  /** A session in Node: start-up, sign-in, the withdrawal page opened and closed, the user's socket event. */
  const record = async (answers?: Record<string, unknown>): Promise<PageLog> => {
    await loadFlowsOf(["authModal", "withdrawal"].map((flow) => ({ at: 0, kind: "event", to: "app", event: { type: "flow.open", flow } })))
    const recorder = createRecorder({ capacity: 10_000 })
    const app = createActor(appIn(world(answers)), { input: { token: undefined, theme: "dark" }, inspect: recorder.inspect, clock: recorder.clock }).start()
    await vi.advanceTimersByTimeAsync(4000)
    // What the header's Login button and the modal host do: ask for the sign-in modal, open its flow.
    app.send({ type: "auth.open", step: "login" })
    app.send({ type: "flow.open", id: "authModal", flow: "authModal", input: { step: "login" } })
    const authModal = app.system.get("authModal")
    authModal.send({ type: "field.change", form: "login", field: "by", value: "username" })
    authModal.send({ type: "field.change", form: "login", field: "username", value: "demo" })
    authModal.send({ type: "field.change", form: "login", field: "password", value: "Demo@1234" })
    authModal.send({ type: "login.submit" })
    await vi.advanceTimersByTimeAsync(100)
    app.send({ type: "flow.open", id: "withdrawal", flow: "withdrawal", input: { range: { start_date: "2026-01-01", end_date: "2026-01-07" } } })
    await vi.advanceTimersByTimeAsync(100)
    app.send({ type: "flow.close", id: "withdrawal" })
    await vi.advanceTimersByTimeAsync(6000)
    app.stop()
    return recorder.page("/")
  }

  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it("reaches the recorded states, actor by actor, from the log alone", async () => {
    const page = await record()
    const states = statesOf(page.entries)
    expect(states.get("app")!.at(-1)).toBe("Ready.Idle")
    expect(states.get("app/session")).toEqual(["LoggedOut", "LoggedIn.Idle", "LoggedIn.Refreshing", "LoggedIn.Idle"])
    expect(states.has("app/withdrawal/payoutAccounts")).toBe(true)
    expect(JSON.stringify(page)).not.toContain("Demo@1234")
    expect(JSON.stringify(page)).not.toContain("tok-secret-1")

    // No timers run in the replay: everything it needs is in the log.
    vi.useRealTimers()
    const replayed = await replayPage(decodeEventLog(JSON.parse(JSON.stringify({ version: 1, app: "khel", exportedAt: "", pages: [page] }))).pages[0]!)
    expect(replayed.problems).toEqual([])
    expect(replayed.actors.find((a) => a.actor === "app/session")!.replayed).toEqual(states.get("app/session"))
    expect(replayed.actors.filter((a) => a.machine).map((a) => a.actor)).toEqual(
      expect.arrayContaining(["app", "app/session", "app/authModal", "app/withdrawal", "app/withdrawal/payoutAccounts"])
    )
  })

  it("follows the world's recorded answers: a failed login replays as one, and a tampered log is caught", async () => {
    const page = await record({ login: offline })
    vi.useRealTimers()
    const replayed = await replayPage(page)
    expect(replayed.problems).toEqual([])
    expect(replayed.actors.find((a) => a.actor === "app/session")!.replayed).toEqual(["LoggedOut"])

    // The same log with the login's answer turned into a success: the session no longer stays logged out.
    const tampered: PageLog = {
      ...page,
      entries: page.entries.map((e) =>
        e.kind === "event" && e.event.type === "xstate.error.actor.login" ? { ...e, event: { type: "xstate.done.actor.login", output: { token: "t", user: player } } } : e
      )
    }
    const diverged = await replayPage(tampered)
    expect(diverged.problems.some((p) => p.startsWith("app/session:"))).toBe(true)
  })

  it("refuses a page that lost its start", async () => {
    const page = await record()
    vi.useRealTimers()
    const replayed = await replayPage({ ...page, dropped: 3, entries: page.entries.slice(3) })
    expect(replayed.problems).toEqual([expect.stringContaining("cannot be replayed from its start")])
  })
})
