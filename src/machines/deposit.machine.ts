import { assign, fromPromise, setup } from "xstate"
import { PAYMENT_MESSAGES, validateDeposit } from "../domain/payments.ts"
import type { AccountKind, DepositRequest, PaymentAccount } from "../schema/payments.ts"
import { SCREENSHOT_MAX_BYTES } from "../schema/payments.ts"
import { depositPrograms } from "./deposit.actors.ts"

/**
 * The Deposit by UPI and Deposit By Account modals (SPEC sections 2, 4, 5):
 * an amount (typed or a quick amount), a transaction reference or a
 * screenshot (which the Uploaded Screenshot viewer shows), then submit.
 * Validation failures are warning toasts, one at a time; success clears the
 * amount and closes.
 */
export interface Screenshot {
  readonly dataUrl: string
  readonly name: string
  readonly type: string
  readonly size: number
}

export interface DepositContext {
  readonly account: PaymentAccount | undefined
  readonly amount: string
  readonly txnRef: string
  readonly screenshot: Screenshot | undefined
  /** One per opened form: a retried submission is the same deposit to the server. */
  readonly key: string
  readonly submitted: number
  /** The server's refusal of the last submission. */
  readonly error: string | undefined
}

export interface DepositSubmission {
  readonly key: string
  readonly accountId: string
  readonly type: AccountKind
  readonly amount: string
  readonly txnRef: string
  readonly screenshot: string | undefined
}

export type DepositEvent =
  | { type: "deposit.open"; account: PaymentAccount }
  | { type: "deposit.close" }
  | { type: "amount.change"; value: string }
  | { type: "amount.quick"; amount: number }
  | { type: "ref.change"; value: string }
  | { type: "screenshot.select"; screenshot: Screenshot }
  | { type: "screenshot.clear" }
  | { type: "screenshot.view" }
  | { type: "viewer.close" }
  | { type: "deposit.submit" }

export const SCREENSHOT_TYPES: ReadonlyArray<string> = ["image/png", "image/jpeg", "image/webp"]
export const SCREENSHOT_MESSAGES = {
  type: "Please upload a PNG, JPEG or WebP image.",
  size: "The screenshot must be at most 5 MB."
} as const

/** What is wrong with a picked file, if anything (the server checks the content again). */
export const screenshotProblem = (file: { type: string; size: number }) =>
  !SCREENSHOT_TYPES.includes(file.type) ? SCREENSHOT_MESSAGES.type : file.size > SCREENSHOT_MAX_BYTES ? SCREENSHOT_MESSAGES.size : undefined

const newKey = () => `deposit-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`

const problemOf = (context: DepositContext) =>
  validateDeposit({ amount: context.amount, txnRef: context.txnRef, hasScreenshot: context.screenshot !== undefined })

export const depositMachine = setup({
  types: {
    context: {} as DepositContext,
    events: {} as DepositEvent
  },
  actors: {
    submitDeposit: fromPromise<DepositRequest, DepositSubmission>(depositPrograms.submit)
  },
  actions: {
    warn: (_, params: { message: string }) => depositPrograms.warn(params.message),
    /** The page reloads its list of requests. */
    submitted: (_, _params: { deposit: DepositRequest }) => {}
  },
  guards: {
    valid: ({ context }) => problemOf(context) === undefined,
    acceptableScreenshot: ({ event }) => event.type === "screenshot.select" && screenshotProblem(event.screenshot) === undefined,
    hasScreenshot: ({ context }) => context.screenshot !== undefined
  }
}).createMachine({
  id: "deposit",
  context: { account: undefined, amount: "", txnRef: "", screenshot: undefined, key: "", submitted: 0, error: undefined },
  initial: "Closed",
  states: {
    Closed: {
      on: {
        "deposit.open": {
          target: "Open",
          actions: assign({ account: ({ event }) => event.account, amount: "", txnRef: "", screenshot: undefined, error: undefined, key: () => newKey() })
        }
      }
    },
    Open: {
      on: { "deposit.close": "Closed" },
      initial: "Editing",
      states: {
        Editing: {
          on: {
            "amount.change": { actions: assign({ amount: ({ event }) => event.value.replace(/[^\d.]/g, "").slice(0, 12) }) },
            "amount.quick": { actions: assign({ amount: ({ event }) => String(event.amount) }) },
            "ref.change": { actions: assign({ txnRef: ({ event }) => event.value.slice(0, 64) }) },
            "screenshot.select": [
              { guard: "acceptableScreenshot", actions: assign({ screenshot: ({ event }) => event.screenshot }) },
              { actions: { type: "warn", params: ({ event }) => ({ message: screenshotProblem(event.screenshot)! }) } }
            ],
            "screenshot.clear": { actions: assign({ screenshot: undefined }) },
            "screenshot.view": { guard: "hasScreenshot", target: "Viewing" },
            "deposit.submit": "Validating"
          }
        },
        /** The client checks of SPEC section 5, in order, one message at a time. */
        Validating: {
          always: [
            { guard: "valid", target: "Submitting" },
            { target: "Editing", actions: { type: "warn", params: ({ context }) => ({ message: problemOf(context) ?? PAYMENT_MESSAGES.enterAmount }) } }
          ]
        },
        /** The Uploaded Screenshot viewer, over the form. */
        Viewing: {
          on: { "viewer.close": "Editing" }
        },
        Submitting: {
          tags: ["busy"],
          entry: assign({ error: undefined }),
          invoke: {
            id: "submitDeposit",
            src: "submitDeposit",
            input: ({ context }) => ({
              key: context.key,
              accountId: context.account!._id,
              type: context.account!.type,
              amount: context.amount,
              txnRef: context.txnRef,
              screenshot: context.screenshot?.dataUrl
            }),
            onDone: {
              target: "#deposit.Closed",
              actions: [
                assign({ amount: "", txnRef: "", screenshot: undefined, submitted: ({ context }) => context.submitted + 1 }),
                { type: "submitted", params: ({ event }) => ({ deposit: event.output }) }
              ]
            },
            // The Api service showed the server's message as a toast; the form stays as typed, with the message in it.
            onError: { target: "Editing", actions: assign({ error: ({ event }) => (event.error as { message?: string })?.message ?? "The deposit was not sent." }) }
          }
        }
      }
    }
  }
})
