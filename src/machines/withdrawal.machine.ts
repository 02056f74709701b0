import { assign, fromPromise, setup } from "xstate"
import { amountInput } from "../domain/money.ts"
import { validateWithdrawal } from "../domain/payments.ts"
import type { DayRange } from "../domain/ranges.ts"
import type { Failure } from "../schema/errors.ts"
import type { PaymentAccount, WithdrawalPayload, WithdrawalRequest } from "../schema/payments.ts"
import { watchBalances } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { payoutAccountsMachine } from "./payoutAccounts.machine.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, unanswered, type Written } from "./writes.ts"

/**
 * /withdrawal: the form (amount and payout account, in context), the
 * player's payout accounts (the `payoutAccounts` child) and the list of their
 * requests for a date range. A valid form is sent with one Idempotency-Key
 * per attempt; the amount is held at once, so the server answers with the
 * request or refuses it (InsufficientBalance when it is more than the player
 * can withdraw). A lost answer keeps the key, so trying again is the same
 * request. The list reloads after a request and whenever the player's money
 * moves (an operator pays or rejects it).
 */
export interface WithdrawalForm {
  readonly amount: string
  /** The payout account chosen; "" means the first one listed. */
  readonly accountId: string
}

export interface WithdrawalContext {
  readonly form: WithdrawalForm
  /** The payout accounts, as the `payoutAccounts` child last listed them. */
  readonly accounts: ReadonlyArray<PaymentAccount>
  readonly range: DayRange
  readonly history: ReadonlyArray<WithdrawalRequest>
  /** Idempotency-Key of the request in flight, kept after a lost answer. */
  readonly key: string | undefined
  /** Why the server refused the last request. */
  readonly refusal: Refusal | undefined
}

export type WithdrawalEvent =
  | { type: "field.change"; field: keyof WithdrawalForm; value: string }
  | { type: "withdraw.submit" }
  | { type: "range.change"; range: DayRange }
  | { type: "balances.changed" }

export interface WithdrawalInput {
  /** The list's first range (the last 7 India days when the page opens). */
  readonly range: DayRange
}

/** A request as it is sent. */
export interface WithdrawalSubmission {
  readonly key: string
  readonly payload: WithdrawalPayload
}

/** The account a withdrawal goes to: the one chosen, or the first listed. */
export const chosenAccount = (context: Pick<WithdrawalContext, "form" | "accounts">) => context.form.accountId || context.accounts[0]?._id

const problemOf = (context: WithdrawalContext) => validateWithdrawal({ amount: context.form.amount, accountId: chosenAccount(context) })

const withdrawalSetup = setup({
  types: {
    context: {} as WithdrawalContext,
    events: {} as WithdrawalEvent | CallFailed<"submit" | "loadHistory">,
    input: {} as WithdrawalInput
  },
  actors: {
    payoutAccounts: payoutAccountsMachine,
    watchBalances,
    loadHistory: fromPromise<ReadonlyArray<WithdrawalRequest>, DayRange>(unprovided("withdrawal", "loadHistory")),
    submit: fromPromise<Written<WithdrawalRequest>, WithdrawalSubmission>(unprovided("withdrawal", "submit"))
  },
  actions: {
    /** A client rule's message as a warning toast (SPEC section 5). */
    warn: unprovidedAction<{ message: string }>("withdrawal", "warn"),
    /** The server's answer to a request ('Withdrawal requested'), SPEC section 7. */
    toastSuccess: unprovidedAction<{ message: string }>("withdrawal", "toastSuccess"),
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("withdrawal", "toastFailure")
  },
  guards: {
    formInvalid: ({ context }) => problemOf(context) !== undefined,
    unanswered
  }
})

export const withdrawalMachine = withdrawalSetup.createMachine({
  id: "withdrawal",
  context: ({ input }) => ({ form: { amount: "", accountId: "" }, accounts: [], range: input.range, history: [], key: undefined, refusal: undefined }),
  type: "parallel",
  invoke: [
    {
      id: "payoutAccounts",
      systemId: "payoutAccounts",
      src: "payoutAccounts",
      onSnapshot: { actions: assign({ accounts: ({ event }) => event.snapshot.context.accounts }) }
    },
    { id: "watchBalances", src: "watchBalances" }
  ],
  states: {
    Form: {
      initial: "Ready",
      states: {
        /** The form takes input: being filled, after a request was filed, or after a refusal. */
        Ready: {
          initial: "Editing",
          on: {
            "field.change": {
              target: ".Editing",
              // Another request: a key kept from a lost answer must not carry it.
              actions: assign(({ context, event }) => ({
                form: { ...context.form, [event.field]: event.field === "amount" ? amountInput(event.value) : event.value },
                key: undefined
              }))
            },
            "withdraw.submit": [
              { guard: "formInvalid", target: ".Editing", actions: { type: "warn", params: ({ context }) => ({ message: problemOf(context)! }) } },
              { target: "Submitting", actions: assign({ key: ({ context }) => context.key ?? newIdempotencyKey("withdrawal"), refusal: undefined }) }
            ]
          },
          states: {
            Editing: {},
            /** The request is filed and the amount held; the form is empty for another. */
            Done: {},
            Refused: {}
          }
        },
        /** The request is on its way: the form takes no input (a change or a second request waits for the answer). */
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "submit",
            src: "submit",
            input: ({ context }) => ({ key: context.key!, payload: { amount: Number(context.form.amount), accountId: chosenAccount(context)! } }),
            onDone: { target: "Ready.Done", actions: [assign(({ context }) => ({ form: { ...context.form, amount: "" }, key: undefined })), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }] }
          },
          on: {
            "xstate.error.actor.submit": [
              { guard: "unanswered", target: "Ready.Refused", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] },
              {
                // InsufficientBalance, a closed account, a limit: the toast says why; a new attempt gets a new key.
                target: "Ready.Refused",
                actions: [assign({ refusal: ({ event }) => refusalOf(event.error), key: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
              }
            ]
          }
        }
      }
    },
    History: listRegion(withdrawalSetup, {
      on: {
        "range.change": { target: ".Loading", actions: assign({ range: ({ event }) => event.range }) },
        // The player's money moved: a request was filed, paid or rejected.
        "balances.changed": ".Loading"
      },
      load: { id: "loadHistory", src: "loadHistory", input: ({ context }) => context.range },
      done: { history: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }
    })
  }
})
