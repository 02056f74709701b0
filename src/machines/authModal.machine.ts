import { assign, fromPromise, sendParent, sendTo, setup } from "xstate"
import { normalizePhone } from "../domain/phone.ts"
import {
  type FieldErrors,
  MESSAGES,
  validateChangePassword,
  validateLogin,
  validateOtp,
  validateReset,
  validateSignUp
} from "../domain/validation.ts"
import type { User } from "../schema/user.ts"
import { auth } from "./authModal.actors.ts"
import { otpCountdownMachine } from "./otpCountdown.machine.ts"

/**
 * The chain of sign-in modals (SPEC sections 2, 4, 5 and 8): login leads to
 * register or forgot; register to login (and, on success, OTP); forgot to
 * login or reset; reset to done. Change password opens on its own. Field
 * rules and their messages come from src/domain/validation.ts.
 */

export interface LoginForm {
  readonly by: "phone" | "username"
  readonly mobileNo: string
  readonly username: string
  readonly password: string
  readonly remember: boolean
}

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

export interface AuthContext {
  /** The server's message, shown in a red alert inside the modal. */
  readonly error: string | undefined
  readonly fieldErrors: FieldErrors<string>
  /** The number the code was sent to (E.164). */
  readonly mobileNo: string | undefined
  /** From `?referral_code=`: shows and fills the referral field of the sign-up form. */
  readonly referralCode: string | undefined
  readonly remember: boolean
  /** False while the resend countdown runs. */
  readonly canResend: boolean
}

export type AuthEvent =
  | { type: "auth.openLogin" }
  | { type: "auth.openRegister"; referralCode?: string }
  | { type: "auth.openChangePassword" }
  | { type: "auth.close" }
  | { type: "auth.toLogin" }
  | { type: "auth.toRegister" }
  | { type: "auth.toForgot" }
  | { type: "login.submit"; form: LoginForm }
  | { type: "register.submit"; form: SignUpForm }
  | { type: "otp.submit"; digits: ReadonlyArray<string> }
  | { type: "otp.resend" }
  | { type: "otp.changePhone" }
  | { type: "forgot.submit"; mobileNo: string }
  | { type: "reset.submit"; form: ResetForm }
  | { type: "password.submit"; form: ChangePasswordForm }
  | { type: "countdown.finished" }

export interface SignedIn {
  readonly token: string
  readonly user: User
}

const noErrors = { error: undefined, fieldErrors: {} }
const serverError = ({ event }: { event: { error: unknown } }) =>
  event.error instanceof Error ? event.error.message : "Something went wrong. Please try again."

export const authModalMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as { referralCode?: string | undefined } | undefined
  },
  actors: {
    login: fromPromise<SignedIn, LoginForm>(auth.login),
    signUp: fromPromise<string, SignUpForm>(auth.signUp),
    verifyOtp: fromPromise<SignedIn, { mobileNo: string; otp: string }>(auth.verifyOtp),
    resendOtp: fromPromise<void, { mobileNo: string }>(auth.resendOtp),
    forgotPassword: fromPromise<string, { mobileNo: string }>(auth.forgotPassword),
    resetPassword: fromPromise<void, { mobileNo: string; form: ResetForm }>(auth.resetPassword),
    changePassword: fromPromise<string, ChangePasswordForm>(auth.changePassword),
    countdown: otpCountdownMachine.provide({ actions: { finished: sendParent({ type: "countdown.finished" }) } })
  },
  actions: {
    /** A warning toast (client notices of SPEC section 8). */
    notice: (_, _params: { message: string }) => {},
    /** An error toast with the server's message (reset failures). */
    errorToast: (_, _params: { message: string }) => {},
    success: (_, _params: { message: string; subMessage?: string }) => {},
    /** Login: the 'Logged In' notice survives the reload to /. */
    reloadHome: () => {},
    goHome: () => {},
    saveSignUpData: (_, _params: { mobileNo: string }) => {},
    clearSignUpData: () => {},
    /** Hands the new session to the session actor (found by its system id). */
    signedIn: sendTo(
      ({ system }) => system.get("session"),
      (_, params: SignedIn & { remember: boolean }) => ({ type: "session.signedIn" as const, ...params })
    ),
    tokenChanged: sendTo(({ system }) => system.get("session"), (_, params: { token: string }) => ({ type: "session.tokenChanged" as const, ...params }))
  }
}).createMachine({
  id: "authModal",
  context: ({ input }) => ({ ...noErrors, mobileNo: undefined, referralCode: input?.referralCode, remember: true, canResend: false }),
  initial: "Closed",
  on: {
    "auth.close": { target: ".Closed", actions: assign(noErrors) }
  },
  states: {
    Closed: {
      on: {
        "auth.openLogin": { target: "Login", actions: assign(noErrors) },
        "auth.openRegister": {
          target: "Register",
          actions: assign(({ context, event }) => ({ ...noErrors, referralCode: event.referralCode ?? context.referralCode }))
        },
        "auth.openChangePassword": { target: "ChangePassword", actions: assign(noErrors) }
      }
    },
    Login: {
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
                guard: ({ event }) => Object.keys(validateLogin(event.form)).length > 0,
                actions: assign(({ event }) => ({ error: undefined, fieldErrors: validateLogin(event.form) }))
              },
              { target: "Submitting", actions: assign(({ event }) => ({ ...noErrors, remember: event.form.remember })) }
            ]
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "login",
            src: "login",
            input: ({ event }) => (event as Extract<AuthEvent, { type: "login.submit" }>).form,
            onDone: {
              target: "#authModal.Closed",
              actions: [
                { type: "signedIn", params: ({ context, event }) => ({ ...event.output, remember: context.remember }) },
                "reloadHome"
              ]
            },
            onError: { target: "Idle", actions: assign({ error: serverError }) }
          }
        }
      }
    },
    Register: {
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "register.submit": [
              {
                guard: ({ event }) => Object.keys(validateSignUp(event.form)).length > 0 || normalizePhone(event.form.mobileNo) === undefined,
                actions: assign(({ event }) => {
                  const errors: FieldErrors<string> = validateSignUp(event.form)
                  return {
                    error: undefined,
                    fieldErrors: errors.mobileNo || normalizePhone(event.form.mobileNo) ? errors : { ...errors, mobileNo: "Enter a valid mobile number" }
                  }
                })
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
            input: ({ event }) => (event as Extract<AuthEvent, { type: "register.submit" }>).form,
            onDone: {
              target: "#authModal.Otp",
              actions: [
                assign({ mobileNo: ({ event }) => event.output }),
                { type: "saveSignUpData", params: ({ event }) => ({ mobileNo: event.output }) }
              ]
            },
            onError: { target: "Idle", actions: assign({ error: serverError }) }
          }
        }
      }
    },
    Otp: {
      invoke: { id: "countdown", src: "countdown", input: {} },
      // The code was just sent: the countdown starts at once.
      entry: [assign({ canResend: false }), sendTo("countdown", { type: "countdown.start" })],
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
                guard: ({ event }) => validateOtp(event.digits) !== undefined,
                actions: assign({ fieldErrors: { otp: MESSAGES.otpRequired } })
              },
              { target: "Verifying", actions: assign(noErrors) }
            ],
            "otp.resend": { guard: ({ context }) => context.canResend, target: "Resending" }
          }
        },
        Verifying: {
          tags: ["busy"],
          invoke: {
            id: "verifyOtp",
            src: "verifyOtp",
            input: ({ context, event }) => ({
              mobileNo: context.mobileNo!,
              otp: (event as Extract<AuthEvent, { type: "otp.submit" }>).digits.join("")
            }),
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
          tags: ["busy"],
          invoke: {
            id: "resendOtp",
            src: "resendOtp",
            input: ({ context }) => ({ mobileNo: context.mobileNo! }),
            onDone: { target: "Idle", actions: [assign({ canResend: false }), sendTo("countdown", { type: "countdown.start" })] },
            onError: "Idle"
          }
        }
      }
    },
    Forgot: {
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "forgot.submit": [
              {
                guard: ({ event }) => event.mobileNo.trim() === "",
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
            input: ({ event }) => ({ mobileNo: (event as Extract<AuthEvent, { type: "forgot.submit" }>).mobileNo }),
            onDone: { target: "#authModal.Reset", actions: assign({ mobileNo: ({ event }) => event.output }) },
            // SPEC section 8: the phone step shows nothing on failure.
            onError: "Idle"
          }
        }
      }
    },
    Reset: {
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "reset.submit": [
              {
                guard: ({ event }) => validateReset(event.form) !== undefined,
                actions: { type: "notice", params: ({ event }) => ({ message: validateReset(event.form)! }) }
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
            input: ({ context, event }) => ({ mobileNo: context.mobileNo!, form: (event as Extract<AuthEvent, { type: "reset.submit" }>).form }),
            onDone: "#authModal.Done",
            onError: { target: "Idle", actions: { type: "errorToast", params: ({ event }) => ({ message: serverError({ event }) }) } }
          }
        }
      }
    },
    Done: {
      on: { "auth.toLogin": { target: "Login", actions: assign(noErrors) } }
    },
    ChangePassword: {
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "password.submit": [
              {
                // All three are required; the fields show it, no message (SPEC section 5).
                guard: ({ event }) => validateChangePassword(event.form) === "required",
                actions: assign(({ event }) => ({
                  error: undefined,
                  fieldErrors: Object.fromEntries(Object.entries(event.form).filter(([, value]) => value === "").map(([key]) => [key, ""]))
                }))
              },
              {
                guard: ({ event }) => validateChangePassword(event.form) !== undefined,
                actions: assign(({ event }) => ({ error: validateChangePassword(event.form), fieldErrors: {} }))
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
            input: ({ event }) => (event as Extract<AuthEvent, { type: "password.submit" }>).form,
            onDone: {
              target: "#authModal.Closed",
              actions: [
                { type: "tokenChanged", params: ({ event }) => ({ token: event.output }) },
                { type: "success", params: { message: "Password Changed" } }
              ]
            },
            onError: { target: "Idle", actions: assign({ error: serverError }) }
          }
        }
      }
    }
  }
})
