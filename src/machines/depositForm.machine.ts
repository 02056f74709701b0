import { assign, enqueueActions, fromPromise, setup } from "xstate"
import {
  DEPOSIT_QUICK_AMOUNTS,
  type DepositForm,
  depositFieldValue,
  depositPayload,
  type PickedScreenshot,
  screenshotProblem,
  validateDeposit
} from "../domain/payments.ts"
import type { Failure } from "../schema/errors.ts"
import type { DepositPayload, DepositRequest, PaymentAccount } from "../schema/payments.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, type Written } from "./writes.ts"
import { INSTALL_MOMENT, installFlow } from "./install.machine.ts"

/**
 * The operator's accounts the player pays into, and the Deposit by UPI and
 * Deposit By Account modals (SPEC sections 2, 4, 5) whose fields live here:
 * an amount (typed or a quick amount), a transaction reference or a
 * screenshot (seen in the Uploaded Screenshot viewer before it is sent).
 * The client checks of SPEC section 5 are warning toasts, one at a time; a
 * valid form is sent with one Idempotency-Key per opened form, so a retry is
 * the same deposit. Success clears the amount and closes (`filed` counts it,
 * for the page's list); a refusal keeps the form as typed with the server's
 * message.
 */
export interface DepositFormContext {
  readonly accounts: ReadonlyArray<PaymentAccount>
  /** The account the open modal pays into. */
  readonly account: PaymentAccount | undefined
  readonly form: DepositForm
  readonly screenshot: PickedScreenshot | undefined
  /** One per opened form: a retried submission is the same deposit to the server. */
  readonly key: string | undefined
  /** Why the server refused the last submission. */
  readonly refusal: Refusal | undefined
  /** Deposits filed since the page opened. */
  readonly filed: number
}

export type DepositFormEvent =
  | { type: "accounts.reload" }
  | { type: "deposit.open"; accountId: string }
  | { type: "deposit.close" }
  | { type: "field.change"; field: keyof DepositForm; value: string }
  | { type: "amount.quick"; amount: number }
  | { type: "screenshot.select"; screenshot: PickedScreenshot }
  | { type: "screenshot.clear" }
  | { type: "screenshot.view" }
  | { type: "viewer.close" }
  | { type: "deposit.submit" }

/** A deposit as it is sent. */
export interface DepositSubmission {
  readonly key: string
  readonly payload: DepositPayload
}

const blankForm: DepositForm = { amount: "", txnRef: "" }

const problemOf = (context: DepositFormContext) =>
  validateDeposit({ amount: context.form.amount, txnRef: context.form.txnRef, hasScreenshot: context.screenshot !== undefined, type: context.account?.type ?? "upi" })

const depositFormSetup = setup({
  types: {
    context: {} as DepositFormContext,
    events: {} as DepositFormEvent | CallFailed<"submit" | "loadAccounts">
  },
  actors: {
    loadAccounts: fromPromise<ReadonlyArray<PaymentAccount>>(unprovided("depositForm", "loadAccounts")),
    submit: fromPromise<Written<DepositRequest>, DepositSubmission>(unprovided("depositForm", "submit"))
  },
  actions: {
    /** The server's answer to a deposit ('Deposit request submitted'), SPEC section 7. */
    toastSuccess: unprovidedAction<{ message: string }>("depositForm", "toastSuccess"),
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("depositForm", "toastFailure"),
    /** A client rule's message as a warning toast (SPEC section 5). */
    warn: unprovidedAction<{ message: string }>("depositForm", "warn"),
    /** A deposit was filed: the install flow hears of a moment to offer the app (it offers once). */
    filed: enqueueActions(({ enqueue, system }) => {
      const install = installFlow(system)
      if (install) enqueue.sendTo(install, INSTALL_MOMENT)
    })
  },
  guards: {
    knownAccount: ({ context, event }) => event.type === "deposit.open" && context.accounts.some((a) => a._id === event.accountId),
    formValid: ({ context }) => problemOf(context) === undefined,
    quickAmount: ({ event }) => event.type === "amount.quick" && DEPOSIT_QUICK_AMOUNTS.includes(event.amount),
    acceptableScreenshot: ({ event }) => event.type === "screenshot.select" && screenshotProblem(event.screenshot) === undefined,
    hasScreenshot: ({ context }) => context.screenshot !== undefined
  }
})

export const depositFormMachine = depositFormSetup.createMachine({
  id: "depositForm",
  context: { accounts: [], account: undefined, form: blankForm, screenshot: undefined, key: undefined, refusal: undefined, filed: 0 },
  type: "parallel",
  states: {
    Accounts: listRegion(depositFormSetup, {
      on: { "accounts.reload": ".Loading" },
      load: { id: "loadAccounts", src: "loadAccounts" },
      done: { accounts: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) },
      // The page offers to try again.
      failedTags: ["failed"]
    }),
    Modal: {
      initial: "Closed",
      states: {
        Closed: {
          on: {
            "deposit.open": {
              guard: "knownAccount",
              target: "Open",
              actions: assign(({ context, event }) => ({
                account: context.accounts.find((a) => a._id === event.accountId),
                form: blankForm,
                screenshot: undefined,
                refusal: undefined,
                key: newIdempotencyKey("deposit")
              }))
            }
          }
        },
        Open: {
          tags: ["open"],
          on: { "deposit.close": "Closed" },
          initial: "Editing",
          states: {
            Editing: {
              on: {
                "field.change": { actions: assign({ form: ({ context, event }) => ({ ...context.form, ...depositFieldValue(event.field, event.value) }) }) },
                "amount.quick": { guard: "quickAmount", actions: assign({ form: ({ context, event }) => ({ ...context.form, amount: String(event.amount) }) }) },
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
                { guard: "formValid", target: "Submitting" },
                { target: "Editing", actions: { type: "warn", params: ({ context }) => ({ message: problemOf(context)! }) } }
              ]
            },
            /** The Uploaded Screenshot viewer, over the form. */
            Viewing: {
              tags: ["viewing"],
              on: { "viewer.close": "Editing" }
            },
            Submitting: {
              tags: ["busy"],
              entry: assign({ refusal: undefined }),
              invoke: {
                id: "submit",
                src: "submit",
                input: ({ context }) => ({ key: context.key!, payload: depositPayload(context.account!, context.form, context.screenshot?.dataUrl) }),
                onDone: {
                  target: "#depositForm.Modal.Closed",
                  actions: [
                    assign(({ context }) => ({ form: blankForm, screenshot: undefined, key: undefined, filed: context.filed + 1 })),
                    { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) },
                    "filed"
                  ]
                }
              },
              on: {
                // The server's message as a toast; the form stays as typed, with the message in it.
                "xstate.error.actor.submit": {
                  target: "Editing",
                  actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
                }
              }
            }
          }
        }
      }
    }
  }
})
