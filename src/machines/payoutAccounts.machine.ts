import { assign, fromPromise, raise, setup } from "xstate"
import { type AccountField, type AccountForm, accountFieldValue, accountPayload, blankAccountForm, validateAccount } from "../domain/payments.ts"
import type { Failure } from "../schema/errors.ts"
import type { AccountDetailsPayload, AccountKind, PaymentAccount } from "../schema/payments.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { type Refusal, refusalOf, type Written } from "./writes.ts"

/**
 * The player's payout accounts (SPEC section 2: Add UPI, Edit UPI, Add Bank
 * Account, Edit Bank Account): the list, and the modal whose fields live here.
 * Every field is required ('Please fill all Fields'), then the shapes of a
 * UPI id, an account number and an IFSC code, one warning at a time; the
 * server's answer shows as a toast (`toastSuccess`, `toastFailure`), a saved account closes
 * the modal and reloads the list.
 */
export interface PayoutAccountsContext {
  readonly accounts: ReadonlyArray<PaymentAccount>
  /** The account being edited; undefined while adding. */
  readonly editing: string | undefined
  readonly form: AccountForm
  /** Why the server refused the last save. */
  readonly refusal: Refusal | undefined
}

export type PayoutAccountsEvent =
  | { type: "accounts.reload" }
  | { type: "account.add"; kind: AccountKind }
  | { type: "account.edit"; accountId: string }
  | { type: "field.change"; field: AccountField; value: string }
  | { type: "account.save" }
  | { type: "modal.close" }

/** A save as the server is asked: `accountId` names the account to update, absent for a new one. */
export interface AccountSave {
  readonly accountId: string | undefined
  readonly account: AccountDetailsPayload
}

const formOf = (account: PaymentAccount): AccountForm => ({ ...blankAccountForm(account.type), ...account })

const payoutAccountsSetup = setup({
  types: {
    context: {} as PayoutAccountsContext,
    events: {} as PayoutAccountsEvent | CallFailed<"saveAccount" | "loadAccounts">
  },
  actors: {
    loadAccounts: fromPromise<ReadonlyArray<PaymentAccount>>(unprovided("payoutAccounts", "loadAccounts")),
    saveAccount: fromPromise<Written<PaymentAccount>, AccountSave>(unprovided("payoutAccounts", "saveAccount"))
  },
  actions: {
    /** A client rule's message as a warning toast. */
    warn: unprovidedAction<{ message: string }>("payoutAccounts", "warn"),
    /** The server's answer to a save ('Your UPI has been added'), SPEC section 7. */
    toastSuccess: unprovidedAction<{ message: string }>("payoutAccounts", "toastSuccess"),
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("payoutAccounts", "toastFailure")
  },
  guards: {
    knownAccount: ({ context, event }) => event.type === "account.edit" && context.accounts.some((a) => a._id === event.accountId),
    formInvalid: ({ context }) => validateAccount(context.form) !== undefined
  }
})

export const payoutAccountsMachine = payoutAccountsSetup.createMachine({
  id: "payoutAccounts",
  context: { accounts: [], editing: undefined, form: blankAccountForm("upi"), refusal: undefined },
  type: "parallel",
  states: {
    List: listRegion(payoutAccountsSetup, {
      on: { "accounts.reload": ".Loading" },
      load: { id: "loadAccounts", src: "loadAccounts" },
      done: { accounts: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }
    }),
    Modal: {
      initial: "Closed",
      states: {
        Closed: {
          on: {
            "account.add": { target: "Open", actions: assign({ editing: undefined, form: ({ event }) => blankAccountForm(event.kind), refusal: undefined }) },
            "account.edit": {
              guard: "knownAccount",
              target: "Open",
              actions: assign(({ context, event }) => ({ editing: event.accountId, form: formOf(context.accounts.find((a) => a._id === event.accountId)!), refusal: undefined }))
            }
          }
        },
        Open: {
          tags: ["open"],
          on: { "modal.close": "Closed" },
          initial: "Editing",
          states: {
            Editing: {
              on: {
                "field.change": { actions: assign({ form: ({ context, event }) => ({ ...context.form, ...accountFieldValue(context.form, event.field, event.value) }) }) },
                "account.save": [
                  { guard: "formInvalid", actions: { type: "warn", params: ({ context }) => ({ message: validateAccount(context.form)! }) } },
                  { target: "Saving", actions: assign({ refusal: undefined }) }
                ]
              }
            },
            Saving: {
              tags: ["busy"],
              invoke: {
                id: "saveAccount",
                src: "saveAccount",
                input: ({ context }) => ({ accountId: context.editing, account: accountPayload(context.form) }),
                onDone: { target: "#payoutAccounts.Modal.Closed", actions: [{ type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }, raise({ type: "accounts.reload" })] }
              },
              on: {
                // The toast says why (a duplicate, say); the form stays as typed.
                "xstate.error.actor.saveAccount": { target: "Editing", actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }] }
              }
            }
          }
        }
      }
    }
  }
})
