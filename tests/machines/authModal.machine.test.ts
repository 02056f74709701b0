import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { authModalMachine } from "../../src/machines/authModal.machine.ts"
import { MESSAGES } from "../../src/domain/validation.ts"
import { player } from "./fixtures.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const spies = () => ({
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

const login = { by: "username" as const, mobileNo: "", username: "ravi", password: "secret123", remember: true }
const signUp = { name: "Ravi", mobileNo: "9876543210", password: "secret123", confirmPassword: "secret123", referralCode: "", ageConfirmed: true, region: "MH" }
const reset = { otp: "1234", password: "newpass123", confirmPassword: "newpass123" }
const change = { oldPassword: "secret123", password: "newpass123", confirmPassword: "newpass123" }

describe("authModal machine (model-based)", () => {
  it("covers every state and transition of the modal chain", () => {
    const coverage = replayPaths(authModalMachine as never, {
      input: {},
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
        "auth.openRegister": [{ type: "auth.openRegister", referralCode: "FRIEND01" }],
        "login.submit": [{ type: "login.submit", form: login }, { type: "login.submit", form: { ...login, password: "" } }],
        "register.submit": [{ type: "register.submit", form: signUp }, { type: "register.submit", form: { ...signUp, confirmPassword: "other" } }],
        "otp.submit": [{ type: "otp.submit", digits: ["1", "2", "3", "4"] }, { type: "otp.submit", digits: ["1", "", "3", "4"] }],
        "forgot.submit": [{ type: "forgot.submit", mobileNo: "9876543210" }, { type: "forgot.submit", mobileNo: " " }],
        "reset.submit": [{ type: "reset.submit", form: reset }, { type: "reset.submit", form: { ...reset, confirmPassword: "x" } }],
        "password.submit": [
          { type: "password.submit", form: change },
          { type: "password.submit", form: { ...change, oldPassword: "" } },
          { type: "password.submit", form: { ...change, confirmPassword: "different1" } }
        ]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.canResend, s.context.mobileNo !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows("authModal", "The sign-in modal chain: login → register or forgot; register → login, or OTP on success; forgot → login or reset; reset → done; change password on its own. Escape or the close button closes from anywhere.", coverage)
  })

  const run = (actors: Record<string, unknown>) => {
    const actions = spies()
    const actor = createActor(authModalMachine.provide({ actions, actors: actors as never }), { input: {} }).start()
    return { actor, actions }
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

  it("shows the field messages of SPEC section 5 without calling the server", () => {
    const loginCall = vi.fn()
    const { actor } = run({ login: fromPromise(async () => loginCall()) })
    actor.send({ type: "auth.openLogin" })
    actor.send({ type: "login.submit", form: { ...login, by: "phone", mobileNo: "", password: "" } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ mobileNo: MESSAGES.mobileRequired, password: MESSAGES.passwordRequired })
    actor.send({ type: "login.submit", form: { ...login, username: " " } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ username: MESSAGES.usernameRequired })
    actor.send({ type: "auth.toRegister" })
    actor.send({ type: "register.submit", form: { name: "", mobileNo: "", password: "", confirmPassword: "", referralCode: "", ageConfirmed: false, region: "" } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: MESSAGES.nameRequired, mobileNo: MESSAGES.mobileRequired, password: MESSAGES.passwordRequired, confirmPassword: MESSAGES.confirmRequired,
      ageConfirmed: MESSAGES.ageRequired, region: MESSAGES.regionRequired
    })
    actor.send({ type: "register.submit", form: { ...signUp, confirmPassword: "nope12345" } })
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ confirmPassword: MESSAGES.passwordsDiffer })
    expect(loginCall).not.toHaveBeenCalled()
  })

  it("signs in: hands the session over and reloads home; a failure shows the server's message", async () => {
    const { actor, actions } = run({
      login: fromPromise<{ token: string; user: typeof player }, typeof login>(async ({ input }) => {
        if (input.password !== "secret123") throw new Error("Invalid username or password")
        return { token: "t", user: player }
      })
    })
    actor.send({ type: "auth.openLogin" })
    actor.send({ type: "login.submit", form: { ...login, password: "wrong-one" } })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await flush()
    expect(actor.getSnapshot().context.error).toBe("Invalid username or password")
    expect(actor.getSnapshot().matches({ Login: "Idle" })).toBe(true)
    actor.send({ type: "login.submit", form: { ...login, remember: false } })
    await flush()
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.signedIn).toHaveBeenCalledWith(expect.anything(), { token: "t", user: player, remember: false })
    expect(actions.reloadHome).toHaveBeenCalledTimes(1)
  })

  it("signs up, keeps the number, verifies the code and signs in", async () => {
    const { actor, actions } = run({
      signUp: fromPromise(async () => "+919876543210"),
      verifyOtp: fromPromise(async ({ input }: { input: { mobileNo: string; otp: string } }) => {
        expect(input).toEqual({ mobileNo: "+919876543210", otp: "4321" })
        return { token: "t", user: player }
      })
    })
    actor.send({ type: "auth.openRegister", referralCode: "FRIEND01" })
    expect(actor.getSnapshot().context.referralCode).toBe("FRIEND01")
    actor.send({ type: "register.submit", form: signUp })
    await flush()
    expect(actor.getSnapshot().matches("Otp")).toBe(true)
    expect(actions.saveSignUpData).toHaveBeenCalledWith(expect.anything(), { mobileNo: "+919876543210" })
    actor.send({ type: "otp.resend" })
    expect(actor.getSnapshot().matches({ Otp: "Idle" })).toBe(true)
    actor.send({ type: "otp.submit", digits: ["4", "3", "2", "1"] })
    await flush()
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.clearSignUpData).toHaveBeenCalled()
    expect(actions.goHome).toHaveBeenCalled()
  })

  it("forgot → reset → done; the reset step checks fields and shows server failures as an error toast", async () => {
    let fail = true
    const { actor, actions } = run({
      forgotPassword: fromPromise(async () => "+919876543210"),
      resetPassword: fromPromise(async () => {
        if (fail) throw new Error("Invalid OTP")
      })
    })
    actor.send({ type: "auth.openLogin" })
    actor.send({ type: "auth.toForgot" })
    actor.send({ type: "forgot.submit", mobileNo: "" })
    expect(actions.notice).toHaveBeenCalledWith(expect.anything(), { message: MESSAGES.enterMobile })
    actor.send({ type: "forgot.submit", mobileNo: "9876543210" })
    await flush()
    expect(actor.getSnapshot().matches("Reset")).toBe(true)
    actor.send({ type: "reset.submit", form: { ...reset, otp: "" } })
    expect(actions.notice).toHaveBeenLastCalledWith(expect.anything(), { message: MESSAGES.fillAll })
    actor.send({ type: "reset.submit", form: { ...reset, confirmPassword: "other" } })
    expect(actions.notice).toHaveBeenLastCalledWith(expect.anything(), { message: MESSAGES.newPasswordMismatch })
    actor.send({ type: "reset.submit", form: reset })
    await flush()
    expect(actions.errorToast).toHaveBeenCalledWith(expect.anything(), { message: "Invalid OTP" })
    fail = false
    actor.send({ type: "reset.submit", form: reset })
    await flush()
    expect(actor.getSnapshot().matches("Done")).toBe(true)
  })

  it("changes the password: closes, says 'Password Changed' and rotates the token", async () => {
    const { actor, actions } = run({ changePassword: fromPromise(async () => "rotated") })
    actor.send({ type: "auth.openChangePassword" })
    actor.send({ type: "password.submit", form: change })
    await flush()
    expect(actor.getSnapshot().matches("Closed")).toBe(true)
    expect(actions.success).toHaveBeenCalledWith(expect.anything(), { message: "Password Changed" })
    expect(actions.tokenChanged).toHaveBeenCalledWith(expect.anything(), { token: "rotated" })
  })
})
