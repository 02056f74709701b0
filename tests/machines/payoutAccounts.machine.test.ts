import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { accountPayload, validateAccount } from "../../src/domain/payments.ts"
import { type AccountSave, type PayoutAccountsContext, payoutAccountsMachine } from "../../src/machines/payoutAccounts.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { AccountDetailsPayload, type PaymentAccount } from "../../src/schema/payments.ts"
import { actionParams, callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "./harness.ts"

const upi: PaymentAccount = { _id: "a-upi", type: "upi", accountNumber: "meera@okaxis", accountHolderName: "Meera Iyer" }
const bank: PaymentAccount = { _id: "a-bank", type: "bank", accountNumber: "123456789012", accountHolderName: "Meera Iyer", bankName: "SBI", ifscCode: "SBIN0001234", accountType: "savings" }
const duplicate: Failure = { code: 409, message: "You have already added this UPI id.", reason: "Conflict" }

/** SPEC section 7: type upi with accountNumber and accountHolderName; type bank with bankName, ifscCode and accountType as well. */
const FIELDS = { upi: ["type", "accountNumber", "accountHolderName"], bank: ["type", "accountNumber", "accountHolderName", "bankName", "ifscCode", "accountType"] }

/** The kinds of account the walk saved, so the payload checks are known to have run for both. */
const savedKinds = new Set<string>()

const checkStep = (step: Step) => {
  const before: PayoutAccountsContext = step.before.context
  const context: PayoutAccountsContext = step.after.context
  // An account being edited is one the list holds.
  if (isIn(step.after, "Modal.Open") && context.editing !== undefined) expect(context.accounts.map((a) => a._id)).toContain(context.editing)
  if (isIn(step.after, "Modal.Open.Saving")) expect(validateAccount(context.form)).toBeUndefined()

  // A save sends the form as the contract takes it, naming the account only when it edits one.
  const saved = invokedWith(step, "saveAccount")
  if (entered(step, "Modal.Open.Saving")) {
    const account = accountPayload(context.form)
    expect(saved?.input).toEqual({ accountId: context.editing, account })
    expect(Object.keys(account).sort()).toEqual([...FIELDS[context.form.type]].sort())
    expect(Schema.decodeUnknownSync(AccountDetailsPayload)(account)).toEqual(account)
    savedKinds.add(account.type)
  } else expect(saved).toBeUndefined()

  // 'Please fill all Fields' or a shape rule, as a warning, only for a save the form cannot make.
  const problem = validateAccount(before.form)
  const warns = step.event.type === "account.save" && isIn(step.before, "Modal.Open.Editing") && problem !== undefined
  expect(actionParams(step, "warn")).toEqual(warns ? [{ message: problem }] : [])

  // The list loads when the flow starts, when asked, and after a save.
  const loads = ["xstate.init", "accounts.reload", "xstate.done.actor.saveAccount"].includes(step.event.type)
  expect(invokedWith(step, "loadAccounts") !== undefined).toBe(loads)
  // A call's failure is a toast, once; a saved account shows the server's message.
  expect(step.actions.filter((a) => a.type.startsWith("toast"))).toEqual(callToasts(step, ["loadAccounts", "saveAccount"], ["saveAccount"]))
}

describe("payoutAccounts machine (model-based)", () => {
  it("covers every state and transition: the list, add and edit of UPI ids and bank accounts", () => {
    const coverage = replayPaths(payoutAccountsMachine, {
      actions: { warn: vi.fn<() => void>(), toastSuccess: () => {}, toastFailure: () => {} },
      outputs: { loadAccounts: [[upi, bank]], saveAccount: [{ data: upi, message: "Your UPI has been added" }] },
      errors: { saveAccount: [duplicate] },
      events: {
        "account.add": [{ type: "account.add", kind: "upi" }, { type: "account.add", kind: "bank" }],
        "account.edit": [{ type: "account.edit", accountId: "a-upi" }, { type: "account.edit", accountId: "a-bank" }, { type: "account.edit", accountId: "gone" }],
        "field.change": [
          { type: "field.change", field: "accountNumber", value: "ravi@okhdfcbank" },
          { type: "field.change", field: "accountHolderName", value: "Ravi" }
        ]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.accounts.length, s.context.form.type, s.context.editing, s.context.form.accountNumber !== "", s.context.form.accountHolderName !== ""]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...savedKinds].sort()).toEqual(["bank", "upi"])
    recordFlows("payoutAccounts", "The player's payout accounts on /withdrawal: the list, and Add UPI, Edit UPI, Add Bank Account, Edit Bank Account with their fields in context; 'Please fill all Fields' and the shape rules as warnings; a save reloads the list and closes the modal, a refusal keeps it open.", coverage)
  })
})

const harness = (save: (input: AccountSave) => Promise<PaymentAccount>, accounts: ReadonlyArray<PaymentAccount> = []) => {
  const warnings: Array<string> = []
  const saves: Array<AccountSave> = []
  let loads = 0
  const actor = createActor(
    payoutAccountsMachine.provide({
      actors: {
        loadAccounts: fromPromise(async () => (loads++, accounts)),
        saveAccount: fromPromise(({ input }: { input: AccountSave }) => (saves.push(input), save(input).then((data) => ({ data, message: "Your UPI has been added" }))))
      },
      actions: { warn: (_: unknown, p: { message: string }) => void warnings.push(p.message), toastSuccess: () => {}, toastFailure: () => {} }
    })
  ).start()
  return { actor, warnings, saves, loads: () => loads }
}

describe("payoutAccounts machine behaviour", () => {
  it("warns 'Please fill all Fields', then the IFSC shape, and sends the bank account as SPEC section 7 lists it", async () => {
    const { actor, warnings, saves, loads } = harness(async () => bank)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ List: "Ready" })).toBe(true))
    actor.send({ type: "account.add", kind: "bank" })
    expect(actor.getSnapshot().context.form.accountType).toBe("savings")
    actor.send({ type: "account.save" })
    for (const [field, value] of [["accountHolderName", " Meera Iyer "], ["bankName", "State Bank of India"], ["accountNumber", "1234-5678-9012"], ["ifscCode", "SBIN123"]] as const) {
      actor.send({ type: "field.change", field, value })
    }
    expect(actor.getSnapshot().context.form.accountNumber).toBe("123456789012")
    actor.send({ type: "account.save" })
    actor.send({ type: "field.change", field: "ifscCode", value: "sbin0001234" })
    actor.send({ type: "account.save" })
    expect(warnings).toEqual(["Please fill all Fields", "IFSC code must look like SBIN0001234 (4 letters, 0, then 6 letters or digits)"])
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Modal: "Closed" })).toBe(true))
    expect(saves).toEqual([{
      accountId: undefined,
      account: { type: "bank", accountNumber: "123456789012", accountHolderName: "Meera Iyer", bankName: "State Bank of India", ifscCode: "SBIN0001234", accountType: "savings" }
    }])
    // The saved account shows: the list loads again.
    await vi.waitFor(() => expect(loads()).toBe(2))
  })

  it("edits an account in place, and keeps the modal open with the form as typed when the server refuses", async () => {
    const { actor, saves } = harness(async () => Promise.reject(duplicate), [upi])
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ List: "Ready" })).toBe(true))
    actor.send({ type: "account.edit", accountId: "a-upi" })
    expect(actor.getSnapshot().context.form).toMatchObject({ type: "upi", accountNumber: "meera@okaxis", accountHolderName: "Meera Iyer" })
    actor.send({ type: "field.change", field: "accountNumber", value: "meera.iyer@okaxis" })
    actor.send({ type: "account.save" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Modal: { Open: "Editing" } })).toBe(true))
    expect(saves[0]).toEqual({ accountId: "a-upi", account: { type: "upi", accountNumber: "meera.iyer@okaxis", accountHolderName: "Meera Iyer" } })
    expect(actor.getSnapshot().context.refusal).toEqual({ reason: "Conflict", message: duplicate.message })
    expect(actor.getSnapshot().context.form.accountNumber).toBe("meera.iyer@okaxis")
  })
})
