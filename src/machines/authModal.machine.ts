import { assign, fromPromise, sendParent, sendTo, setup } from "xstate"
import { BLANK_PHONE, normalizePhone, type PhoneField, phoneField, phoneNumber } from "../domain/phone.ts"
import {
  type FieldErrors,
  MESSAGES,
  validateChangePassword,
  validateLogin,
  validateOtp,
  validateReset,
  validateSignUp
} from "../domain/validation.ts"
import type { Failure } from "../schema/errors.ts"
import { messageOf } from "../schema/failures.ts"
import type { User } from "../schema/user.ts"
import type { CallFailed } from "./calls.ts"
import { otpCountdownMachine } from "./otpCountdown.machine.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import type { Written } from "./writes.ts"

/**
 * The chain of sign-in modals (SPEC sections 2, 4, 5 and 8): login leads to
 * register or forgot; register to login (and, on success, OTP); forgot to
 * login or reset; reset to done. Change password opens on its own. Every
 * field of every form lives here (`field.change`), each step starting from
 * an empty form; the rules and their messages come from
 * src/domain/validation.ts. Only showing a password as text is the view's.
 *
 * A flow of the app's system (id `authModal`), loaded the first time a view
 * asks the app for a modal (`auth.open`): it starts at the step asked for and
 * ends when the chain closes (the app hears `auth.closed`).
 */

/** The step a view asks for. */
export type AuthStep = "login" | "register" | "changePassword"

export interface AuthModalInput {
  readonly step: AuthStep
  /** From `?referral_code=`: shows and fills the referral field of the sign-up form. */
  readonly referralCode?: string | undefined
}

/** What the login call is given. */
export interface LoginForm {
  readonly by: "phone" | "username"
  readonly mobileNo: string
  readonly username: string
  readonly password: string
  readonly remember: boolean
}

/** What the sign-up call is given. */
export interface SignUpForm {
  readonly name: string
  readonly mobileNo: string
  readonly password: string
  readonly confirmPassword: string
  readonly referralCode: string
  /** "I am 18 or older and accept the terms", ticked. */
  readonly ageConfirmed: boolean
  /** The state the player lives in (ISO 3166-2:IN code without the prefix), "" until chosen. */
  readonly region: string
}

export interface ResetForm {
  readonly otp: string
  readonly password: string
  readonly confirmPassword: string
}

export interface ChangePasswordForm {
  readonly oldPassword: string
  readonly password: string
  readonly confirmPassword: string
}

/** The forms as the modals show them. */
export interface AuthForms {
  readonly login: {
    /** The Phone Number / Username tab: which of the two is sent (SPEC section 3). */
    readonly by: "phone" | "username"
    readonly phone: PhoneField
    readonly username: string
    readonly password: string
    /** Remember me (checked by default): keep the token beyond this browser session. */
    readonly remember: boolean
  }
  readonly register: {
    readonly name: string
    readonly phone: PhoneField
    readonly password: string
    readonly confirmPassword: string
    readonly referralCode: string
    readonly ageConfirmed: boolean
    readonly region: string
  }
  readonly otp: { readonly digits: ReadonlyArray<string> }
  readonly forgot: { readonly phone: PhoneField }
  readonly reset: ResetForm
  readonly changePassword: ChangePasswordForm
}

/** A typed value: `{ type: "field.change", form: "login", field: "username", value: "ravi" }`. */
export type FieldChange = {
  [F in keyof AuthForms]: { [K in keyof AuthForms[F]]: { readonly type: "field.change"; readonly form: F; readonly field: K; readonly value: AuthForms[F][K] } }[keyof AuthForms[F]]
}[keyof AuthForms]

export interface AuthContext {
  /** Where the chain started. */
  readonly step: AuthStep
  readonly forms: AuthForms
  /** The server's message, shown in a red alert inside the modal. */
  readonly error: string | undefined
  readonly fieldErrors: FieldErrors<string>
  /** The number the code was sent to (E.164). */
  readonly mobileNo: string | undefined
  readonly referralCode: string | undefined
  /** False while the resend countdown runs. */
  readonly canResend: boolean
}

export type AuthEvent =
  | { type: "auth.close" }
  | { type: "auth.toLogin" }
  | { type: "auth.toRegister" }
  | { type: "auth.toForgot" }
  | FieldChange
  | { type: "login.submit" }
  | { type: "register.submit" }
  | { type: "otp.submit" }
  | { type: "otp.resend" }
  | { type: "otp.changePhone" }
  | { type: "forgot.submit" }
  | { type: "reset.submit" }
  | { type: "password.submit" }
  | { type: "countdown.finished" }

export interface SignedIn {
  readonly token: string
  readonly user: User
}

/** The chain's screens: its top-level states but Opening and Closed. */
export type AuthScreen = "Login" | "Register" | "Otp" | "Forgot" | "Reset" | "Done" | "ChangePassword"
const SCREENS: ReadonlyArray<AuthScreen> = ["Login", "Register", "Otp", "Forgot", "Reset", "Done", "ChangePassword"]

/** The screen the chain shows now, none while it opens or is closed: what views read instead of state paths. */
export const authScreen = (snapshot: { readonly value: unknown }): AuthScreen | undefined => {
  const top = typeof snapshot.value === "string" ? snapshot.value : Object.keys(snapshot.value as object)[0]
  return SCREENS.find((screen) => screen === top)
}

export const OTP_LENGTH = 4

/** The notice after login, shown once the site is back from the reload (SPEC section 4). */
export const LOGGED_IN = "Logged In"

const blankForms = (referralCode: string | undefined): AuthForms => ({
  login: { by: "phone", phone: BLANK_PHONE, username: "", password: "", remember: true },
  register: { name: "", phone: BLANK_PHONE, password: "", confirmPassword: "", referralCode: referralCode ?? "", ageConfirmed: false, region: "" },
  otp: { digits: Array.from({ length: OTP_LENGTH }, () => "") },
  forgot: { phone: BLANK_PHONE },
  reset: { otp: "", password: "", confirmPassword: "" },
  changePassword: { oldPassword: "", password: "", confirmPassword: "" }
})

/** A value as the form keeps it: phone numbers as digits, the OTP as digits, the referral code upper case. */
const kept = (event: FieldChange): unknown => {
  const value: unknown = event.value
  if (event.field === "phone") return phoneField(event.value.country, event.value.national)
  if (event.form === "otp") return event.value.map((digit) => digit.replace(/\D/g, "").slice(-1))
  if (event.form === "reset" && event.field === "otp") return event.value.replace(/\D/g, "").slice(0, OTP_LENGTH)
  if (event.form === "register" && event.field === "referralCode") return event.value.toUpperCase().slice(0, 32)
  return value
}

/** The forms with a typed value kept (`field.change`). Inline, not a named action: it is the form's state, not an effect. */
const withField = ({ context, event }: { context: AuthContext; event: AuthEvent }): AuthForms =>
  event.type === "field.change" ? { ...context.forms, [event.form]: { ...context.forms[event.form], [event.field]: kept(event) } } : context.forms

/** What each call is given, from the forms. */
export const loginForm = ({ login }: AuthForms): LoginForm => ({
  by: login.by,
  mobileNo: phoneNumber(login.phone),
  username: login.username,
  password: login.password,
  remember: login.remember
})
export const signUpForm = ({ register }: AuthForms): SignUpForm => ({
  name: register.name,
  mobileNo: phoneNumber(register.phone),
  password: register.password,
  confirmPassword: register.confirmPassword,
  referralCode: register.referralCode,
  ageConfirmed: register.ageConfirmed,
  region: register.region
})

/** The sign-up form's field errors: the rules of SPEC section 5, then the shape of the number. */
const signUpErrors = (forms: AuthForms): FieldErrors<string> => {
  const form = signUpForm(forms)
  const errors: FieldErrors<string> = validateSignUp(form)
  return errors.mobileNo || normalizePhone(form.mobileNo) ? errors : { ...errors, mobileNo: "Enter a valid mobile number" }
}

/**
 * A form's check, run once per value of the form: a submit's guard and its action read the same result
 * (forms are replaced, never changed, by `field.change`).
 */
const checkedOnce = <F extends object, R>(check: (form: F) => R) => {
  const seen = new WeakMap<F, R>()
  return (form: F): R => {
    if (!seen.has(form)) seen.set(form, check(form))
    return seen.get(form)!
  }
}
const loginErrors = checkedOnce((forms: AuthForms) => validateLogin(loginForm(forms)))
const registerErrors = checkedOnce(signUpErrors)
const otpError = checkedOnce(validateOtp)
const resetError = checkedOnce(validateReset)
const passwordError = checkedOnce(validateChangePassword)

const noErrors = { error: undefined, fieldErrors: {} }
const serverError = ({ event }: { event: { error: Failure } }) => messageOf(event.error)

export const authModalMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent | CallFailed<"login" | "signUp" | "resendOtp" | "resetPassword" | "changePassword">,
    input: {} as AuthModalInput,
    children: {} as {
      countdown: "countdown"
      login: "login"
      signUp: "signUp"
      verifyOtp: "verifyOtp"
      resendOtp: "resendOtp"
      forgotPassword: "forgotPassword"
      resetPassword: "resetPassword"
      changePassword: "changePassword"
    }
  },
  actors: {
    login: fromPromise<SignedIn, LoginForm>(unprovided("authModal", "login")),
    /** Answers the number the code went to (E.164). */
    signUp: fromPromise<string, SignUpForm>(unprovided("authModal", "signUp")),
    verifyOtp: fromPromise<SignedIn, { mobileNo: string; otp: string }>(unprovided("authModal", "verifyOtp")),
    /** Answers the server's message ('OTP sent'), shown as a toast. */
    resendOtp: fromPromise<Written, { mobileNo: string }>(unprovided("authModal", "resendOtp")),
    forgotPassword: fromPromise<string, { mobileNo: string }>(unprovided("authModal", "forgotPassword")),
    resetPassword: fromPromise<void, { mobileNo: string; form: ResetForm }>(unprovided("authModal", "resetPassword")),
    /** Answers the new token. */
    changePassword: fromPromise<string, ChangePasswordForm>(unprovided("authModal", "changePassword")),
    countdown: otpCountdownMachine.provide({ actions: { finished: sendParent({ type: "countdown.finished" }) } })
  },
  guards: {
    opensRegister: ({ context }) => context.step === "register",
    opensChangePassword: ({ context }) => context.step === "changePassword",
    loginInvalid: ({ context }) => Object.keys(loginErrors(context.forms)).length > 0,
    registerInvalid: ({ context }) => Object.keys(registerErrors(context.forms)).length > 0,
    otpIncomplete: ({ context }) => otpError(context.forms.otp.digits) !== undefined,
    canResend: ({ context }) => context.canResend,
    phoneMissing: ({ context }) => phoneNumber(context.forms.forgot.phone) === "",
    resetInvalid: ({ context }) => resetError(context.forms.reset) !== undefined,
    /** All three are required; the fields show it, no message (SPEC section 5). */
    passwordFieldsMissing: ({ context }) => passwordError(context.forms.changePassword) === "required",
    passwordInvalid: ({ context }) => passwordError(context.forms.changePassword) !== undefined,
    /** The change leaves all four digits of the code typed, and different from before: time to verify it. */
    codeCompleted: ({ context, event }) => {
      if (event.type !== "field.change" || event.form !== "otp") return false
      const digits = kept(event) as ReadonlyArray<string>
      return validateOtp(digits) === undefined && digits.join("") !== context.forms.otp.digits.join("")
    }
  },
  actions: {
    /** The chain closed: the app (its parent) closes the flow. */
    closed: sendParent({ type: "auth.closed" }),
    /** A step starts with its form empty. */
    resetForm: assign(({ context }, params: { form: keyof AuthForms }) => ({
      forms: { ...context.forms, [params.form]: blankForms(context.referralCode)[params.form] }
    })),
    /** A warning toast (client notices of SPEC section 8). */
    notice: unprovidedAction<{ message: string }>("authModal", "notice"),
    /** An error toast with the server's message (reset failures). */
    errorToast: unprovidedAction<{ message: string }>("authModal", "errorToast"),
    success: unprovidedAction<{ message: string; subMessage?: string }>("authModal", "success"),
    /** A resent code: the server's message as a success toast (SPEC section 7). */
    toastSuccess: unprovidedAction<{ message: string }>("authModal", "toastSuccess"),
    /** A resend that failed: the server's message as a warning (or an error, unreachable), SPEC section 8. */
    toastFailure: unprovidedAction<{ error: Failure }>("authModal", "toastFailure"),
    /** Login: the 'Logged In' notice survives the reload to /. */
    reloadHome: unprovidedAction("authModal", "reloadHome"),
    goHome: unprovidedAction("authModal", "goHome"),
    /** signUpData (the number) in session storage, for the OTP step. */
    saveSignUpData: unprovidedAction<{ mobileNo: string }>("authModal", "saveSignUpData"),
    clearSignUpData: unprovidedAction("authModal", "clearSignUpData"),
    /** Hands the new session to the session actor (found by its system id). */
    signedIn: sendTo(
      ({ system }) => system.get("session"),
      (_, params: SignedIn & { remember: boolean }) => ({ type: "session.signedIn" as const, ...params })
    ),
    tokenChanged: sendTo(({ system }) => system.get("session"), (_, params: { token: string }) => ({ type: "session.tokenChanged" as const, ...params }))
  }
}).createMachine({
  id: "authModal",
  context: ({ input }) => ({
    step: input.step,
    forms: blankForms(input.referralCode),
    ...noErrors,
    mobileNo: undefined,
    referralCode: input.referralCode,
    canResend: false
  }),
  initial: "Opening",
  on: {
    "auth.close": { target: ".Closed", actions: assign(noErrors) },
    "field.change": { actions: assign({ forms: withField }) }
  },
  states: {
    /** The step the view asked for. */
    Opening: {
      always: [
        { guard: "opensRegister", target: "Register" },
        { guard: "opensChangePassword", target: "ChangePassword" },
        { target: "Login" }
      ]
    },
    Closed: { type: "final", entry: "closed" },
    Login: {
      entry: { type: "resetForm", params: { form: "login" } },
      on: {
        "auth.toRegister": { target: "Register", actions: assign(noErrors) },
        "auth.toForgot": { target: "Forgot", actions: assign(noErrors) }
      },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "login.submit": [
              {
                guard: "loginInvalid",
                actions: assign(({ context }) => ({ error: undefined, fieldErrors: loginErrors(context.forms) }))
              },
              { target: "Submitting", actions: assign(noErrors) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "login",
            src: "login",
            input: ({ context }) => loginForm(context.forms),
            onDone: {
              target: "#authModal.Closed",
              actions: [
                { type: "signedIn", params: ({ context, event }) => ({ ...event.output, remember: context.forms.login.remember }) },
                "reloadHome"
              ]
            }
          },
          on: { "xstate.error.actor.login": { target: "Idle", actions: assign({ error: serverError }) } }
        }
      }
    },
    Register: {
      entry: { type: "resetForm", params: { form: "register" } },
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "register.submit": [
              {
                guard: "registerInvalid",
                actions: assign(({ context }) => ({ error: undefined, fieldErrors: registerErrors(context.forms) }))
              },
              { target: "Submitting", actions: assign(noErrors) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "signUp",
            src: "signUp",
            input: ({ context }) => signUpForm(context.forms),
            onDone: {
              target: "#authModal.Otp",
              actions: [
                assign({ mobileNo: ({ event }) => event.output }),
                { type: "saveSignUpData", params: ({ event }) => ({ mobileNo: event.output }) }
              ]
            }
          },
          on: { "xstate.error.actor.signUp": { target: "Idle", actions: assign({ error: serverError }) } }
        }
      }
    },
    Otp: {
      invoke: { id: "countdown", src: "countdown", input: {} },
      // The code was just sent: the countdown starts at once.
      entry: [{ type: "resetForm", params: { form: "otp" } }, assign({ canResend: false }), sendTo("countdown", { type: "countdown.start" })],
      on: {
        "otp.changePhone": { target: "Register", actions: assign(noErrors) },
        "countdown.finished": { actions: assign({ canResend: true }) }
      },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "otp.submit": [
              {
                guard: "otpIncomplete",
                actions: assign({ fieldErrors: { otp: MESSAGES.otpRequired } })
              },
              { target: "Verifying", actions: assign(noErrors) }
            ],
            "otp.resend": { guard: "canResend", target: "Resending" },
            // The fourth digit typed (or the code pasted, or filled from the SMS) verifies at once; Verify stays for a retry.
            "field.change": { guard: "codeCompleted", target: "Verifying", actions: [assign({ forms: withField }), assign(noErrors)] }
          }
        },
        Verifying: {
          tags: ["busy"],
          invoke: {
            id: "verifyOtp",
            src: "verifyOtp",
            input: ({ context }) => ({ mobileNo: context.mobileNo!, otp: context.forms.otp.digits.join("") }),
            onDone: {
              target: "#authModal.Closed",
              actions: [
                "clearSignUpData",
                { type: "signedIn", params: ({ event }) => ({ ...event.output, remember: true }) },
                "goHome"
              ]
            },
            // SPEC section 8: a failed verification shows nothing.
            onError: "Idle"
          }
        },
        Resending: {
          tags: ["busy", "resending"],
          invoke: {
            id: "resendOtp",
            src: "resendOtp",
            input: ({ context }) => ({ mobileNo: context.mobileNo! }),
            onDone: { target: "Idle", actions: [assign({ canResend: false }), sendTo("countdown", { type: "countdown.start" }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }] }
          },
          on: { "xstate.error.actor.resendOtp": { target: "Idle", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } } }
        }
      }
    },
    Forgot: {
      entry: { type: "resetForm", params: { form: "forgot" } },
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "forgot.submit": [
              {
                guard: "phoneMissing",
                actions: [assign({ fieldErrors: { mobileNo: MESSAGES.mobileRequired } }), { type: "notice", params: { message: MESSAGES.enterMobile } }]
              },
              { target: "Submitting", actions: assign(noErrors) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "forgotPassword",
            src: "forgotPassword",
            input: ({ context }) => ({ mobileNo: phoneNumber(context.forms.forgot.phone) }),
            onDone: { target: "#authModal.Reset", actions: assign({ mobileNo: ({ event }) => event.output }) },
            // SPEC section 8: the phone step shows nothing on failure.
            onError: "Idle"
          }
        }
      }
    },
    Reset: {
      entry: { type: "resetForm", params: { form: "reset" } },
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "reset.submit": [
              {
                guard: "resetInvalid",
                actions: { type: "notice", params: ({ context }) => ({ message: resetError(context.forms.reset)! }) }
              },
              { target: "Submitting" }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "resetPassword",
            src: "resetPassword",
            input: ({ context }) => ({ mobileNo: context.mobileNo!, form: context.forms.reset }),
            onDone: "#authModal.Done"
          },
          on: { "xstate.error.actor.resetPassword": { target: "Idle", actions: { type: "errorToast", params: ({ event }) => ({ message: serverError({ event }) }) } } }
        }
      }
    },
    Done: {
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } }
    },
    ChangePassword: {
      entry: { type: "resetForm", params: { form: "changePassword" } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "password.submit": [
              {
                guard: "passwordFieldsMissing",
                actions: assign(({ context }) => ({
                  error: undefined,
                  fieldErrors: Object.fromEntries(Object.entries(context.forms.changePassword).filter(([, value]) => value === "").map(([key]) => [key, ""]))
                }))
              },
              {
                guard: "passwordInvalid",
                actions: assign(({ context }) => ({ error: passwordError(context.forms.changePassword), fieldErrors: {} }))
              },
              { target: "Submitting", actions: assign(noErrors) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "changePassword",
            src: "changePassword",
            input: ({ context }) => context.forms.changePassword,
            onDone: {
              target: "#authModal.Closed",
              actions: [
                { type: "tokenChanged", params: ({ event }) => ({ token: event.output }) },
                { type: "success", params: { message: "Password Changed" } }
              ]
            }
          },
          on: { "xstate.error.actor.changePassword": { target: "Idle", actions: assign({ error: serverError }) } }
        }
      }
    }
  }
})
