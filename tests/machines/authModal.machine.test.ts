import { describe, expect, it, vi } from "vitest"
import { type AnyActorRef, createActor, fromPromise, type SnapshotFrom, type StateValueFrom } from "xstate"
import { type AuthEvent, type AuthForms, type AuthModalInput, authModalMachine, LOGGED_IN, type LoginForm, loginForm, OTP_LENGTH, type SignedIn } from "../../src/machines/authModal.machine.ts"
import { RESEND_SECONDS } from "../../src/machines/otpCountdown.machine.ts"
import { MESSAGES } from "../../src/domain/validation.ts"
import {
  changePasswordPayload,
  forgotPasswordPayload,
  loginPayload,
  resendOtpPayload,
  resetPasswordPayload,
  signUpPayload,
  verifyOtpPayload
} from "../../src/root/requests.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { player, recordingSession, signInEffects } from "./fixtures.ts"
import { type ActorsOf, expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, hosted, must, recorder, settled, type WalkStep } from "./walk.ts"

const spies = () => ({
  closed: vi.fn(),
  notice: vi.fn(),
  errorToast: vi.fn(),
  success: vi.fn(),
  toastSuccess: vi.fn(),
  toastFailure: vi.fn(),
  reloadHome: vi.fn(),
  goHome: vi.fn(),
  saveSignUpData: vi.fn(),
  clearSignUpData: vi.fn(),
  signedIn: vi.fn(),
  tokenChanged: vi.fn()
})

type Change = Extract<AuthEvent, { type: "field.change" }>
const change = <F extends Change["form"]>(form: F, field: Extract<Change, { form: F }>["field"], value: unknown) => ({ type: "field.change", form, field, value }) as Change

const phone = (national: string) => ({ country: "IN" as const, national })
const loginAsRavi = [change("login", "by", "username"), change("login", "username", "ravi"), change("login", "password", "secret123")]
const signUpAsRavi = [
  change("register", "name", "Ravi"), change("register", "phone", phone("9876543210")), change("register", "password", "secret123"), change("register", "confirmPassword", "secret123"),
  change("register", "region", "MH"), change("register", "ageConfirmed", true)
]
const resetTo = (confirm: string) => [change("reset", "otp", "12a34"), change("reset", "password", "newpass123"), change("reset", "confirmPassword", confirm)]
const changeTo = (confirm: string) => [change("changePassword", "oldPassword", "secret123"), change("changePassword", "password", "newpass123"), change("changePassword", "confirmPassword", confirm)]

/** The open step's form: what the walk tells states apart by, besides the state (other forms start empty on entry). */
const formOf = (s: { value: unknown; context: { forms: AuthForms } }) => {
  const step = typeof s.value === "string" ? s.value : Object.keys(s.value as object)[0]
  const key = ({ Login: "login", Register: "register", Otp: "otp", Forgot: "forgot", Reset: "reset", ChangePassword: "changePassword" } as const)[step as "Login"]
  return key ? s.context.forms[key] : undefined
}

type Auth = SnapshotFrom<typeof authModalMachine>

const busyStates: ReadonlyArray<StateValueFrom<typeof authModalMachine>> = [{ Login: "Submitting" }, { Register: "Submitting" }, { Otp: "Verifying" }, { Otp: "Resending" }, { Forgot: "Submitting" }, { Reset: "Submitting" }, { ChangePassword: "Submitting" }]
const childrenOf = (s: Auth) => s.children as Record<string, AnyActorRef | undefined>

/**
 * Busy exactly while a call is out; the OTP and reset steps know the number
 * the code went to; resend is allowed exactly when the countdown stands at 0;
 * the forms keep only what they may hold (4 OTP digits, the referral code in
 * capitals); a closed chain shows no error.
 */
export const invariants = (s: Auth) => {
  const c = s.context
  must(s.hasTag("busy") === busyStates.some((state) => s.matches(state)), "busy exactly while a call is out", s.value)
  if (s.matches("Otp") || s.matches("Reset") || s.matches("Done")) must(c.mobileNo === "+919876543210", "the number the code went to is known", c.mobileNo)
  if (s.matches("Otp")) {
    const countdown = childrenOf(s).countdown?.getSnapshot() as { context: { remaining: number }; hasTag: (tag: string) => boolean } | undefined
    must(countdown !== undefined, "the countdown runs on the OTP step")
    must(c.canResend === (countdown!.context.remaining === 0 && !countdown!.hasTag("waiting")), "resend allowed exactly at 0", [c.canResend, countdown!.context.remaining])
  }
  must(c.forms.otp.digits.length === OTP_LENGTH && c.forms.otp.digits.every((d) => /^\d?$/.test(d)), "the OTP is 4 single digits", c.forms.otp.digits)
  must(/^\d{0,4}$/.test(c.forms.reset.otp), "the reset code is up to 4 digits", c.forms.reset.otp)
  must(c.forms.register.referralCode === c.forms.register.referralCode.toUpperCase() && c.forms.register.referralCode.length <= 32, "the referral code in capitals", c.forms.register.referralCode)
  if (s.matches("Closed")) must(c.error === undefined && s.status === "done", "a closed chain is done and shows no error", [c.error, s.status])
}

const number = "+919876543210"
const closed: Effect = { kind: "do", name: "tell parent", params: { type: "auth.closed" } }
const call = (endpoint: string, body: unknown): Effect => ({ kind: "call", endpoint: `POST /identity/user/${endpoint}`, body })

/** SPEC sections 3, 4, 5 and 8: the payload of every call, the notices, and what each answer does to the session, storage and the page. */
const effects = (step: WalkStep<Auth>): Array<Effect> => {
  const { before, event, after } = step
  const c = before?.context
  const entering = (state: StateValueFrom<typeof authModalMachine>) => after.matches(state) && !before?.matches(state)
  switch (event.type) {
    case "xstate.init":
      // The session beside the modal: signed out, or signed in for a password change.
      return after.context.step === "changePassword"
        ? [{ kind: "do", name: "socket token", params: { token: "old" } }, { kind: "watch", name: "user channel", input: { userId: player.id } }]
        : [{ kind: "do", name: "socket token", params: { token: undefined } }]
    case "login.submit":
      return entering({ Login: "Submitting" }) ? [call("login", { username: "ravi", password: "secret123" })] : []
    case "register.submit":
      return entering({ Register: "Submitting" })
        ? [call("sign-up", { name: "Ravi", mobile_no: number, password: "secret123", confirmPassword: "secret123", ...(c!.referralCode ? { affiliateCode: c!.referralCode } : {}), ageConfirmed: true, region: "MH" })]
        : []
    case "otp.submit":
      return entering({ Otp: "Verifying" }) ? [call("verify-otp", { mobile_no: number, otp: "1234" })] : []
    case "field.change":
      // The code's fourth digit verifies it at once, as Verify would.
      return entering({ Otp: "Verifying" }) ? [call("verify-otp", { mobile_no: number, otp: "1234" })] : []
    case "otp.resend":
      return entering({ Otp: "Resending" }) ? [call("resend-otp", { mobile_no: number })] : []
    case "forgot.submit":
      return entering({ Forgot: "Submitting" }) ? [call("forgot-password", { mobile_no: number })] : [{ kind: "toast", level: "warning", message: "Please Enter Mobile No" }]
    case "reset.submit": {
      if (entering({ Reset: "Submitting" })) return [call("forgot-password", { mobile_no: number, otp: "1234", password: "newpass123", confirm_password: "newpass123" })]
      const form = c!.forms.reset
      const message = form.otp === "" || form.password === "" || form.confirmPassword === "" ? "Please fill all Fields" : "New password and Confirm password mismatch"
      return [{ kind: "toast", level: "warning", message }]
    }
    case "password.submit":
      return entering({ ChangePassword: "Submitting" }) ? [call("change-password", { old_password: "secret123", password: "newpass123", confirm_password: "newpass123" })] : []
    case "auth.close":
      // A closed chain is done: it hears nothing more.
      return before!.status === "active" ? [closed] : []
  }
  if (settled(step, "login") === "done") {
    return [...signInEffects("t", player, c!.forms.login.remember), { kind: "toast", level: "success", message: "Logged In" }, { kind: "do", name: "reload home" }, closed]
  }
  if (settled(step, "signUp") === "done") return [{ kind: "store", what: "signUpData", value: { mobileNo: number } }]
  if (settled(step, "verifyOtp") === "done") return [{ kind: "store", what: "signUpData cleared" }, ...signInEffects("t", player, true), { kind: "do", name: "go home" }, closed]
  if (settled(step, "resetPassword") === "error") return [{ kind: "toast", level: "error", message: "Invalid OTP" }]
  // A resent code shows the server's message; a refused resend its reason, as a warning.
  if (settled(step, "resendOtp") === "done") return [{ kind: "toast", level: "success", message: "OTP sent" }]
  if (settled(step, "resendOtp") === "error") return [{ kind: "toast", level: "warning", message: "Try again later" }]
  if (settled(step, "changePassword") === "done") {
    return [
      { kind: "store", what: "token", value: { token: "rotated" } },
      { kind: "do", name: "socket token", params: { token: "rotated" } },
      { kind: "toast", level: "success", message: "Password Changed" },
      closed
    ]
  }
  // The server's message in the red alert (login, sign-up, change password); nothing for the phone step and OTP (SPEC section 8).
  for (const [id, message] of [["login", "Invalid username or password"], ["signUp", "Mobile number already registered"], ["changePassword", "Old password is incorrect"]] as const) {
    if (settled(step, id) === "error") must(after.context.error === message, `the server's message shows after ${id} failed`, after.context.error)
  }
  if (settled(step, "verifyOtp") === "error" || settled(step, "forgotPassword") === "error") must(after.context.error === undefined, "a failed OTP or phone step shows nothing")
  return []
}

const refused = (message: string): Array<Failure> => [{ code: 422, message, reason: "Refused" }]

describe("authModal machine (model-based)", () => {
  it("covers every state and transition of the modal chain, checking payloads, notices, the session signed in and the countdown at every step", () => {
    const world = recorder()
    const coverage = replayPaths(authModalMachine, {
      input: { step: "login" },
      from: [
        { label: "Register asked for, from a referral link", input: { step: "register", referralCode: "FRIEND01" } },
        { label: "Change password asked for", input: { step: "changePassword" } }
      ],
      world,
      // The real session beside the modal (signed in for a password change), and the app as its parent.
      host: hosted(world, (input) => {
        const changing = (input as AuthModalInput).step === "changePassword"
        return { session: { src: recordingSession(world), input: { token: changing ? "old" : undefined }, ...(changing ? { tell: { type: "session.loaded", user: player } } : {}) } }
      }),
      actors: {
        login: world.call("POST /identity/user/login", loginPayload),
        signUp: world.call("POST /identity/user/sign-up", signUpPayload),
        verifyOtp: world.call("POST /identity/user/verify-otp", verifyOtpPayload),
        resendOtp: world.call("POST /identity/user/resend-otp", resendOtpPayload),
        forgotPassword: world.call("POST /identity/user/forgot-password", forgotPasswordPayload),
        resetPassword: world.call("POST /identity/user/forgot-password", resetPasswordPayload),
        changePassword: world.call("POST /identity/user/change-password", changePasswordPayload),
      },
      // The real countdown, on the walk's simulated clock.
      real: ["countdown"],
      actions: {
        notice: world.toastOf("warning"),
        errorToast: world.toastOf("error"),
        success: world.toastOf("success"),
        toastSuccess: world.toastSuccess,
        toastFailure: world.toastFailure,
        reloadHome: () => {
          world.record({ kind: "toast", level: "success", message: LOGGED_IN })
          world.record({ kind: "do", name: "reload home" })
        },
        goHome: world.act("go home"),
        saveSignUpData: world.store("signUpData"),
        clearSignUpData: world.store("signUpData cleared")
      },
      graphActions: { closed: () => {}, signedIn: () => {}, tokenChanged: () => {} },
      // The countdown finishing is ten seconds of the simulated clock, one at a time.
      drive: { "countdown.finished": (clock) => Array.from({ length: RESEND_SECONDS }).forEach(() => clock.increment(1000)) },
      invariants,
      effects,
      errors: {
        login: refused("Invalid username or password"),
        signUp: refused("Mobile number already registered"),
        verifyOtp: refused("Invalid OTP"),
        resendOtp: refused("Try again later"),
        forgotPassword: refused("Mobile number not registered"),
        resetPassword: refused("Invalid OTP"),
        changePassword: refused("Old password is incorrect")
      },
      outputs: {
        login: [{ token: "t", user: player }],
        signUp: ["+919876543210"],
        verifyOtp: [{ token: "t", user: player }],
        resendOtp: [{ data: null, message: "OTP sent" }],
        forgotPassword: ["+919876543210"],
        resetPassword: [undefined],
        changePassword: ["rotated"]
      },
      events: {
        "field.change": [
          ...loginAsRavi,
          ...signUpAsRavi,
          change("otp", "digits", ["1", "2", "3", "4"]),
          change("forgot", "phone", phone("9876543210")),
          ...resetTo("newpass123"),
          ...changeTo("newpass123"),
          change("changePassword", "confirmPassword", "different1")
        ]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.canResend, s.context.mobileNo !== undefined, formOf(s)])
    })
    expectFullCoverage(coverage)
    recordFlows("authModal", "The sign-in modal chain, a flow opened at the step a view asks the app for: login → register or forgot; register → login, or OTP on success; forgot → login or reset; reset → done; change password on its own. Every field is in context (field.change), each step starts empty. Escape or the close button ends the chain from anywhere.", coverage)
  })

  const run = (actors: ActorsOf<typeof authModalMachine>, input: AuthModalInput = { step: "login" }) => {
    const actions = spies()
    const actor = createActor(authModalMachine.provide({ actions, actors }), { input }).start()
    const fill = (changes: ReadonlyArray<Change>) => changes.forEach((event) => actor.send(event))
    return { actor, actions, fill }
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

  it("shows the field messages of SPEC section 5 without calling the server", () => {
    const loginCall = vi.fn()
    const { actor, fill } = run({ login: fromPromise(async () => loginCall()) })
    actor.send({ type: "login.submit" })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ mobileNo: MESSAGES.mobileRequired, password: MESSAGES.passwordRequired })
    fill([change("login", "by", "username"), change("login", "username", " "), change("login", "password", "x")])
    actor.send({ type: "login.submit" })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ username: MESSAGES.usernameRequired })
    actor.send({ type: "auth.toRegister" })
    actor.send({ type: "register.submit" })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: MESSAGES.nameRequired, mobileNo: MESSAGES.mobileRequired, password: MESSAGES.passwordRequired, confirmPassword: MESSAGES.confirmRequired,
      ageConfirmed: MESSAGES.ageRequired, region: MESSAGES.regionRequired
    })
    fill([...signUpAsRavi, change("register", "confirmPassword", "nope12345")])
    actor.send({ type: "register.submit" })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ confirmPassword: MESSAGES.passwordsDiffer })
    expect(loginCall).not.toHaveBeenCalled()
  })

  it("keeps every field in context: the phone as digits, the tab, remember me; each step starts empty", () => {
    const { actor, fill } = run({})
    fill([change("login", "phone", { country: "IN", national: "98765-43210x" }), change("login", "remember", false)])
    expect(actor.getSnapshot().context.forms.login).toMatchObject({ by: "phone", phone: { country: "IN", national: "9876543210" }, remember: false })
    expect(loginForm(actor.getSnapshot().context.forms)).toMatchObject({ mobileNo: "+919876543210", remember: false })
    actor.send({ type: "auth.toRegister" })
    actor.send({ type: "auth.toLogin" })
    expect(actor.getSnapshot().context.forms.login).toMatchObject({ phone: { national: "" }, remember: true })
  })

  it("signs in: hands the session over with remember me and reloads home; a failure shows the server's message", async () => {
    const inputs: Array<unknown> = []
    const { actor, actions, fill } = run({
      login: fromPromise<SignedIn, LoginForm>(async ({ input }) => {
        inputs.push(input)
        if (input.password !== "secret123") throw { code: 422, message: "Invalid username or password", reason: "InvalidCredentials" }
        return { token: "t", user: player }
      })
    })
    fill([...loginAsRavi, change("login", "password", "wrong-one")])
    actor.send({ type: "login.submit" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await flush()
    expect(actor.getSnapshot().context.error).toBe("Invalid username or password")
    expect(actor.getSnapshot().matches({ Login: "Idle" })).toBe(true)
    fill([change("login", "password", "secret123"), change("login", "remember", false)])
    actor.send({ type: "login.submit" })
    await flush()
    expect(inputs[1]).toEqual({ by: "username", mobileNo: "", username: "ravi", password: "secret123", remember: false })
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.closed).toHaveBeenCalledTimes(1)
    expect(actions.signedIn).toHaveBeenCalledWith(expect.anything(), { token: "t", user: player, remember: false })
    expect(actions.reloadHome).toHaveBeenCalledTimes(1)
  })

  it("signs up with the referral code of the link, keeps the number, verifies the code and signs in", async () => {
    const signUps: Array<unknown> = []
    const { actor, actions, fill } = run({
      signUp: fromPromise(async ({ input }) => (signUps.push(input), "+919876543210")),
      verifyOtp: fromPromise(async ({ input }: { input: { mobileNo: string; otp: string } }) => {
        expect(input).toEqual({ mobileNo: "+919876543210", otp: "4321" })
        return { token: "t", user: player }
      })
    }, { step: "register", referralCode: "FRIEND01" })
    expect(actor.getSnapshot().context.forms.register.referralCode).toBe("FRIEND01")
    fill([...signUpAsRavi, change("register", "referralCode", "friend02")])
    actor.send({ type: "register.submit" })
    await flush()
    expect(signUps).toEqual([{ name: "Ravi", mobileNo: "+919876543210", password: "secret123", confirmPassword: "secret123", referralCode: "FRIEND02", ageConfirmed: true, region: "MH" }])
    expect(actor.getSnapshot().matches("Otp")).toBe(true)
    expect(actions.saveSignUpData).toHaveBeenCalledWith(expect.anything(), { mobileNo: "+919876543210" })
    actor.send({ type: "otp.resend" })
    expect(actor.getSnapshot().matches({ Otp: "Idle" })).toBe(true)
    actor.send({ type: "otp.submit" })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ otp: MESSAGES.otpRequired })
    fill([change("otp", "digits", ["4", "3", "2", "1"])])
    actor.send({ type: "otp.submit" })
    await flush()
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.clearSignUpData).toHaveBeenCalled()
    expect(actions.goHome).toHaveBeenCalled()
  })

  it("verifies the code as soon as its fourth digit is typed; after a refusal, a changed digit verifies again and Verify still works", async () => {
    const codes: Array<string> = []
    let accept = false
    const { actor, fill } = run({
      signUp: fromPromise(async () => "+919876543210"),
      verifyOtp: fromPromise(async ({ input }: { input: { mobileNo: string; otp: string } }) => {
        codes.push(input.otp)
        if (!accept) throw { code: 422, message: "Invalid OTP", reason: "Refused" }
        return { token: "t", user: player }
      })
    }, { step: "register" })
    fill(signUpAsRavi)
    actor.send({ type: "register.submit" })
    await flush()
    fill([change("otp", "digits", ["1", "2", "", ""]), change("otp", "digits", ["1", "2", "3", ""])])
    expect(actor.getSnapshot().matches({ Otp: "Idle" })).toBe(true)
    fill([change("otp", "digits", ["1", "2", "3", "4"])])
    expect(actor.getSnapshot().matches({ Otp: "Verifying" })).toBe(true)
    await flush()
    // Refused: nothing shows (SPEC section 8), the digits stay; the same code again does not resend by itself.
    expect(actor.getSnapshot().matches({ Otp: "Idle" })).toBe(true)
    fill([change("otp", "digits", ["1", "2", "3", "4"])])
    expect(actor.getSnapshot().matches({ Otp: "Idle" })).toBe(true)
    fill([change("otp", "digits", ["1", "2", "3", "5"])])
    await flush()
    accept = true
    actor.send({ type: "otp.submit" })
    await flush()
    expect(codes).toEqual(["1234", "1235", "1235"])
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
  })

  it("forgot → reset → done; the reset step checks fields and shows server failures as an error toast", async () => {
    let fail = true
    const resets: Array<unknown> = []
    const { actor, actions, fill } = run({
      forgotPassword: fromPromise(async () => "+919876543210"),
      resetPassword: fromPromise(async ({ input }) => {
        resets.push(input)
        if (fail) throw { code: 422, message: "Invalid OTP", reason: "Refused" }
      })
    })
    actor.send({ type: "auth.toForgot" })
    actor.send({ type: "forgot.submit" })
    expect(actions.notice).toHaveBeenCalledWith(expect.anything(), { message: MESSAGES.enterMobile })
    fill([change("forgot", "phone", phone("9876543210"))])
    actor.send({ type: "forgot.submit" })
    await flush()
    expect(actor.getSnapshot().matches("Reset")).toBe(true)
    actor.send({ type: "reset.submit" })
    expect(actions.notice).toHaveBeenLastCalledWith(expect.anything(), { message: MESSAGES.fillAll })
    fill(resetTo("other"))
    actor.send({ type: "reset.submit" })
    expect(actions.notice).toHaveBeenLastCalledWith(expect.anything(), { message: MESSAGES.newPasswordMismatch })
    fill(resetTo("newpass123"))
    actor.send({ type: "reset.submit" })
    await flush()
    expect(resets[0]).toEqual({ mobileNo: "+919876543210", form: { otp: "1234", password: "newpass123", confirmPassword: "newpass123" } })
    expect(actions.errorToast).toHaveBeenCalledWith(expect.anything(), { message: "Invalid OTP" })
    fail = false
    actor.send({ type: "reset.submit" })
    await flush()
    expect(actor.getSnapshot().matches("Done")).toBe(true)
  })

  it("changes the password: closes, says 'Password Changed' and rotates the token", async () => {
    const { actor, actions, fill } = run({ changePassword: fromPromise(async () => "rotated") }, { step: "changePassword" })
    fill(changeTo("newpass123"))
    actor.send({ type: "password.submit" })
    await flush()
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.success).toHaveBeenCalledWith(expect.anything(), { message: "Password Changed" })
    expect(actions.tokenChanged).toHaveBeenCalledWith(expect.anything(), { token: "rotated" })
  })
})
