import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type AuthEvent, type AuthForms, type AuthModalInput, authModalMachine, loginForm } from "../../src/machines/authModal.machine.ts"
import { MESSAGES } from "../../src/domain/validation.ts"
import { player } from "./fixtures.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const spies = () => ({
  closed: vi.fn(),
  notice: vi.fn(),
  errorToast: vi.fn(),
  success: vi.fn(),
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

describe("authModal machine (model-based)", () => {
  it("covers every state and transition of the modal chain", () => {
    const coverage = replayPaths(authModalMachine as never, {
      input: { step: "login" },
      from: [
        { label: "Register asked for, from a referral link", input: { step: "register", referralCode: "FRIEND01" } },
        { label: "Change password asked for", input: { step: "changePassword" } }
      ],
      actions: spies(),
      outputs: {
        login: [{ token: "t", user: player }],
        signUp: ["+919876543210"],
        verifyOtp: [{ token: "t", user: player }],
        resendOtp: [undefined],
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
      serialize: (s) => JSON.stringify([s.value, s.context.canResend, s.context.mobileNo !== undefined, formOf(s as never)])
    })
    expectFullCoverage(coverage)
    recordFlows("authModal", "The sign-in modal chain, a flow opened at the step a view asks the app for: login → register or forgot; register → login, or OTP on success; forgot → login or reset; reset → done; change password on its own. Every field is in context (field.change), each step starts empty. Escape or the close button ends the chain from anywhere.", coverage)
  })

  const run = (actors: Record<string, unknown>, input: AuthModalInput = { step: "login" }) => {
    const actions = spies()
    const actor = createActor(authModalMachine.provide({ actions, actors: actors as never }), { input }).start()
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
      login: fromPromise<{ token: string; user: typeof player }, { password: string }>(async ({ input }) => {
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
