import { expect } from "@playwright/test"
import type { AnyEventObject, AnyMachineSnapshot } from "xstate"
import type { AuthForms, authModalMachine } from "../../../../src/machines/authModal.machine.ts"
import { answerOf, type EventAdapter, type FlowAdapter, type FlowWorld, networkDown } from "../adapter.ts"
import { createPlayer, freshNational, openSignedIn, waitForApp, waitForCode, waitOutCodeSpacing } from "../../support.ts"

const done = answerOf<typeof authModalMachine>()

/**
 * The sign-in modals. Field values in the walk are stand-ins the steps turn into real ones: FRESH a number
 * nobody has, TAKEN the number of a player made for the test, WRONG_CODE the code the server sent with its
 * first digit changed (so the server refuses it).
 */
const FRESH = "8000000001"
const TAKEN = "9000000001"
const WRONG_CODE = ["9", "9", "9", "9"]
const PASSWORD = "Monsoon#Tiffin42"

const dialog = ({ page }: FlowWorld) => page.getByRole("dialog")
const heading = (world: FlowWorld, name: string, timeout?: number) => expect(dialog(world).getByRole("heading", { name })).toBeVisible({ timeout })
const click = (name: string) => async (world: FlowWorld) => dialog(world).getByRole("button", { name, exact: true }).click()

type Forms = AuthForms
const change = (form: keyof Forms, field: string, value: unknown): AnyEventObject => ({ type: "field.change", form, field, value })

/** The next field to fill on the form on screen, with the values worth trying. */
const nextField = (snapshot: AnyMachineSnapshot): ReadonlyArray<AnyEventObject> => {
  const forms = snapshot.context.forms as Forms
  if (snapshot.matches({ Register: "Idle" })) {
    const form = forms.register
    const country = form.phone.country
    if (form.name === "") return [change("register", "name", "Flow Player")]
    if (form.phone.national === "") return [FRESH, TAKEN].map((national) => change("register", "phone", { country, national }))
    if (form.password === "") return [change("register", "password", PASSWORD)]
    if (form.confirmPassword === "") return [change("register", "confirmPassword", PASSWORD)]
    if (form.region === "") return [change("register", "region", "MH")]
    if (!form.ageConfirmed) return [change("register", "ageConfirmed", true)]
  }
  if (snapshot.matches({ Otp: "Idle" }) && forms.otp.digits.every((d) => d === "")) return [change("otp", "digits", WRONG_CODE)]
  if (snapshot.matches({ Forgot: "Idle" }) && forms.forgot.phone.national === "") {
    return [change("forgot", "phone", { country: forms.forgot.phone.country, national: TAKEN })]
  }
  if (snapshot.matches({ ChangePassword: "Idle" })) {
    const form = forms.changePassword
    if (form.oldPassword === "") return [change("changePassword", "oldPassword", PASSWORD)]
    if (form.password === "") return [change("changePassword", "password", "Fresh#Mango1234")]
    if (form.confirmPassword === "") return ["Fresh#Mango1234", "Other#Mango1234"].map((value) => change("changePassword", "confirmPassword", value))
  }
  return []
}

/** The number being signed up: the server refuses TAKEN and sends FRESH a code. */
const signingUp = (snapshot: AnyMachineSnapshot) => (snapshot.context.forms as Forms).register.phone.national

const LABELS: Record<string, string> = {
  "register.name": "Name",
  "register.phone": "Mobile number",
  "register.password": "Password",
  "register.confirmPassword": "Confirm password",
  "forgot.phone": "Mobile number",
  "changePassword.oldPassword": "Current password",
  "changePassword.password": "New password",
  "changePassword.confirmPassword": "Confirm new password"
}

const fill: EventAdapter = {
  samples: nextField,
  step: async (world, event) => {
    if (event.field === "digits") {
      const code = await waitForCode(world.data.mobileNo!, "signup")
      const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`
      for (const [i, digit] of [...wrong].entries()) await dialog(world).getByLabel(`Digit ${i + 1} of 4`).fill(digit)
      return
    }
    if (event.field === "region") return void (await dialog(world).getByLabel("State you live in").selectOption(event.value as string))
    if (event.field === "ageConfirmed") return dialog(world).getByRole("checkbox", { name: /I am 18 or older/ }).check()
    let value = event.value as string | { national: string }
    if (typeof value === "object") {
      const national = value.national === FRESH ? freshNational() : world.data.taken!
      world.data.mobileNo = `+91${national}`
      value = national
    }
    await dialog(world).getByLabel(LABELS[`${event.form}.${event.field}`]!, { exact: true }).fill(value)
  }
}

const events: FlowAdapter["events"] = {
  "field.change": fill,
  "auth.toRegister": { step: async (world) => dialog(world).getByRole("button", { name: "Sign up" }).click() },
  "auth.toForgot": { step: click("Forgot password?") },
  "auth.toLogin": { step: async (world) => dialog(world).getByRole("button", { name: /^(Login|Back to login)$/ }).click() },
  "register.submit": { step: click("Create account") },
  "otp.submit": { step: click("Verify") },
  "otp.changePhone": { step: click("Change phone number") },
  "forgot.submit": {
    step: async (world) => {
      // TAKEN's sign-up code went out when it was made.
      await waitOutCodeSpacing(world.page, Number(world.data.takenAt ?? 0))
      await click("Send OTP")(world)
    }
  },
  "password.submit": { step: click("Change password") },
  // The real server's answers: the steps before decide which.
  "xstate.done.actor.signUp": {
    samples: (snapshot) => (signingUp(snapshot) === FRESH ? [done("signUp", `+91${FRESH}`)] : []),
    step: async (world) => heading(world, "Verify your number")
  },
  "xstate.error.actor.signUp": {
    samples: (snapshot) => (signingUp(snapshot) === TAKEN ? [{ type: "xstate.error.actor.signUp", actorId: "signUp", error: { code: 422, message: "taken", reason: "Conflict" } }] : []),
    step: async (world) => expect(dialog(world).getByRole("alert")).toBeVisible()
  },
  "xstate.error.actor.verifyOtp": {
    samples: [{ type: "xstate.error.actor.verifyOtp", actorId: "verifyOtp", error: { code: 400, message: "wrong", reason: "InvalidInput" } }],
    step: async (world) => expect(dialog(world).getByRole("button", { name: "Verify" })).toBeEnabled()
  },
  "xstate.done.actor.forgotPassword": {
    samples: [done("forgotPassword", `+91${TAKEN}`)],
    step: async (world) => heading(world, "Reset password")
  },
  // The server answers every number alike (no account enumeration): only a dropped network fails this call.
  "xstate.error.actor.forgotPassword": {
    samples: [{ type: "xstate.error.actor.forgotPassword", actorId: "forgotPassword", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
    arrange: networkDown("**/identity/user/forgot-password"),
    step: async (world) => expect(dialog(world).getByRole("button", { name: "Send OTP" })).toBeEnabled()
  }
}

const states: FlowAdapter["states"] = {
  "authModal.Login": async (world) => heading(world, "Sign in"),
  "authModal.Register": async (world) => heading(world, "Create your account"),
  "authModal.Otp": async (world) => heading(world, "Verify your number"),
  "authModal.Forgot": async (world) => heading(world, "Forgot password"),
  "authModal.Reset": async (world) => heading(world, "Reset password"),
  "authModal.ChangePassword": async (world) => heading(world, "Change password")
}

/** A visitor opens Sign in from the header; a player is made whose number is TAKEN. */
export const authModal: FlowAdapter = {
  machine: "authModal",
  input: { step: "login" },
  start: async (world) => {
    const taken = await createPlayer(world.request, "Taken Player")
    world.data.taken = taken.national
    world.data.takenAt = String(Date.now())
    await world.page.goto("/")
    await waitForApp(world.page)
    await world.page.getByRole("banner").getByRole("button", { name: "Login" }).click()
    // The modals' code loads on this first click.
    await heading(world, "Sign in", 20_000)
  },
  events,
  states
}

/** A signed-in player opens Change Password from the account menu. */
export const authModalChangePassword: FlowAdapter = {
  machine: "authModal",
  name: "authModal.changePassword",
  input: { step: "changePassword" },
  start: async (world) => {
    const player = await createPlayer(world.request, "Password Player")
    await openSignedIn(world.page, player.token)
    await world.page.getByRole("button", { name: /Account menu/ }).click()
    await world.page.getByRole("menuitem", { name: "Change Password" }).click()
    await heading(world, "Change password", 20_000)
  },
  events,
  states
}
