import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { amountInput } from "../../src/domain/money.ts"
import { type PickedScreenshot, screenshotProblem, validateDeposit } from "../../src/domain/payments.ts"
import { type DepositFormContext, type DepositSubmission, depositFormMachine } from "../../src/machines/depositForm.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { DepositPayload, type DepositRequest, type PaymentAccount } from "../../src/schema/payments.ts"
import { actionParams, callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "./harness.ts"

const upi: PaymentAccount = { _id: "acc-upi", type: "upi", accountNumber: "khel@okaxis", accountHolderName: "Khel Gaming" }
const bank: PaymentAccount = { _id: "acc-bank", type: "bank", accountNumber: "50200012345678", accountHolderName: "Khel Gaming", bankName: "HDFC Bank", ifscCode: "HDFC0001234", accountType: "current" }
const png: PickedScreenshot = { dataUrl: "data:image/png;base64,iVBORw0KGgo=", name: "pay.png", type: "image/png", size: 2048 }
const gif: PickedScreenshot = { dataUrl: "data:image/gif;base64,R0lGOD", name: "pay.gif", type: "image/gif", size: 100 }
const huge: PickedScreenshot = { ...png, size: 6 * 1024 * 1024 }
const filed: DepositRequest = { _id: "d1", amount: 500, accountId: "acc-upi", type: "upi", txnRef: "UTR1", screenshot: null, status: "pending", remark: null, createdAt: "2026-01-01T00:00:00.000Z", decidedAt: null }
const closedAccount: Failure = { code: 409, message: "This deposit account is no longer available.", reason: "Conflict" }

const problemOf = (context: DepositFormContext) =>
  validateDeposit({ amount: context.form.amount, txnRef: context.form.txnRef, hasScreenshot: context.screenshot !== undefined, type: context.account?.type ?? "upi" })

/** The deposits the walk sent, by modal and proof (`upi:screenshot`), so the payload checks are known to have run. */
const sentKinds = new Set<string>()

const checkStep = (step: Step) => {
  const before: DepositFormContext = step.before.context
  const context: DepositFormContext = step.after.context
  expect(amountInput(context.form.amount)).toBe(context.form.amount)
  if (isIn(step.after, "Modal.Open")) {
    // An open form pays into a listed account, under one key for as long as it is open.
    expect(context.accounts).toContainEqual(context.account)
    expect(context.key).toMatch(/^deposit-/)
    if (isIn(step.before, "Modal.Open")) expect(context.key).toBe(before.key)
  }
  // Only an acceptable file is ever kept.
  if (context.screenshot) expect(screenshotProblem(context.screenshot)).toBeUndefined()
  // A filed deposit leaves a blank form behind.
  if (step.event.type === "xstate.done.actor.submit") {
    expect(context).toMatchObject({ form: { amount: "", txnRef: "" }, screenshot: undefined, key: undefined, filed: before.filed + 1 })
  } else expect(context.filed).toBe(before.filed)

  // The deposit is sent exactly when a valid form is submitted: txnRef always (empty when only a screenshot
  // proves it), the screenshot as baseImage from the UPI modal and as screenshot from the bank modal.
  const sent = invokedWith(step, "submit")
  if (entered(step, "Modal.Open.Submitting")) {
    expect(problemOf(context)).toBeUndefined()
    const account = context.account!
    const payload = {
      amount: Number(context.form.amount),
      accountId: account._id,
      type: account.type,
      txnRef: context.form.txnRef.trim(),
      ...(context.screenshot ? { [account.type === "upi" ? "baseImage" : "screenshot"]: context.screenshot.dataUrl } : {})
    }
    expect(sent?.input).toEqual({ key: context.key, payload })
    expect(Schema.decodeUnknownSync(DepositPayload)(payload)).toEqual(payload)
    sentKinds.add(`${account.type}:${payload.txnRef === "" ? "screenshot" : "reference"}`)
  } else expect(sent).toBeUndefined()

  // Warnings: the first rule of SPEC section 5 a submitted form breaks, or why a file was refused; nothing else warns.
  const editing = isIn(step.before, "Modal.Open.Editing")
  const warning =
    !editing ? undefined
    : step.event.type === "deposit.submit" ? problemOf(before)
    : step.event.type === "screenshot.select" ? screenshotProblem(step.event.screenshot as PickedScreenshot)
    : undefined
  expect(actionParams(step, "warn")).toEqual(warning ? [{ message: warning }] : [])

  // A call's failure is a toast, once; a filed deposit shows the server's message.
  expect(step.actions.filter((a) => a.type.startsWith("toast"))).toEqual(callToasts(step, ["loadAccounts", "submit"], ["submit"]))

  // The operator's accounts load when the form opens and when asked again.
  expect(invokedWith(step, "loadAccounts") !== undefined).toBe(["xstate.init", "accounts.reload"].includes(step.event.type))
}

describe("depositForm machine (model-based)", () => {
  it("covers every state and transition: the operator's accounts and both modals", () => {
    const coverage = replayPaths(depositFormMachine, {
      actions: { warn: vi.fn<() => void>(), toastSuccess: () => {}, toastFailure: () => {} },
      outputs: { loadAccounts: [[upi, bank]], submit: [{ data: filed, message: "Deposit request submitted" }] },
      errors: { submit: [closedAccount] },
      events: {
        "deposit.open": [{ type: "deposit.open", accountId: "acc-upi" }, { type: "deposit.open", accountId: "acc-bank" }],
        "field.change": [
          { type: "field.change", field: "amount", value: "" },
          { type: "field.change", field: "amount", value: "50" },
          { type: "field.change", field: "amount", value: "500" },
          { type: "field.change", field: "txnRef", value: "UTR1" },
          { type: "field.change", field: "txnRef", value: "412345678901" }
        ],
        "amount.quick": [{ type: "amount.quick", amount: 1000 }],
        "screenshot.select": [{ type: "screenshot.select", screenshot: png }, { type: "screenshot.select", screenshot: gif }]
      },
      // The form as its checks see it, per modal (a closed form is blank again when it opens).
      serialize: (s) => {
        const { form, screenshot, accounts } = s.context
        const problem = validateDeposit({ amount: form.amount, txnRef: form.txnRef, hasScreenshot: screenshot !== undefined, type: s.context.account?.type ?? "upi" })
        return JSON.stringify([s.value, accounts.length, s.matches({ Modal: "Closed" }) ? "" : [s.context.account?.type, problem ?? "valid", screenshot !== undefined]])
      },
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...sentKinds].sort()).toEqual(["bank:reference", "bank:screenshot", "upi:reference", "upi:screenshot"])
    recordFlows(
      "depositForm",
      "The operator's accounts on /deposit and the Deposit by UPI and Deposit By Account modals: amount (typed or quick) and a reference or a screenshot (seen in the Uploaded Screenshot viewer) in context, the client checks of SPEC section 5 as warnings, one Idempotency-Key per opened form; success clears the amount and closes, a refusal keeps the form.",
      coverage
    )
  })
})

const harness = (submit: (input: DepositSubmission) => Promise<DepositRequest>) => {
  const warnings: Array<string> = []
  const submissions: Array<DepositSubmission> = []
  const actor = createActor(
    depositFormMachine.provide({
      actors: {
        loadAccounts: fromPromise(async (): Promise<ReadonlyArray<PaymentAccount>> => [upi, bank]),
        submit: fromPromise(({ input }: { input: DepositSubmission }) => (submissions.push(input), submit(input).then((data) => ({ data, message: "Deposit request submitted" }))))
      },
      actions: { warn: (_: unknown, p: { message: string }) => void warnings.push(p.message), toastSuccess: () => {}, toastFailure: () => {} }
    })
  ).start()
  const opened = async (accountId: string) => {
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Accounts: "Ready" })).toBe(true))
    actor.send({ type: "deposit.open", accountId })
    expect(actor.getSnapshot().matches({ Modal: { Open: "Editing" } })).toBe(true)
  }
  return { actor, warnings, submissions, opened }
}

describe("depositForm machine behaviour", () => {
  it("opens only on a listed account, and warns in the order of SPEC section 5, one message per submit, sending nothing", async () => {
    const { actor, warnings, submissions, opened } = harness(async () => filed)
    actor.send({ type: "deposit.open", accountId: "gone" })
    expect(actor.getSnapshot().matches({ Modal: "Closed" })).toBe(true)
    await opened("acc-upi")
    actor.send({ type: "deposit.submit" })
    actor.send({ type: "field.change", field: "amount", value: "99" })
    actor.send({ type: "deposit.submit" })
    actor.send({ type: "amount.quick", amount: 500 })
    actor.send({ type: "deposit.submit" })
    expect(warnings).toEqual(["Please enter amount", "Min Deposit amount is 100", "Please provide reference-id or upload a screenshot."])
    expect(submissions).toEqual([])
    expect(actor.getSnapshot().matches({ Modal: { Open: "Editing" } })).toBe(true)
  })

  it("refuses a file that is not PNG, JPEG or WebP, or over 5 MB, and shows an accepted one in the viewer", async () => {
    const { actor, warnings, opened } = harness(async () => filed)
    await opened("acc-upi")
    actor.send({ type: "screenshot.select", screenshot: gif })
    actor.send({ type: "screenshot.select", screenshot: huge })
    expect(warnings).toEqual(["Please upload a PNG, JPEG or WebP image.", "The screenshot must be at most 5 MB."])
    actor.send({ type: "screenshot.view" })
    expect(actor.getSnapshot().matches({ Modal: { Open: "Editing" } })).toBe(true)
    actor.send({ type: "screenshot.select", screenshot: png })
    actor.send({ type: "screenshot.view" })
    expect(actor.getSnapshot().matches({ Modal: { Open: "Viewing" } })).toBe(true)
    actor.send({ type: "viewer.close" })
    expect(actor.getSnapshot().context.screenshot).toEqual(png)
  })

  it("sends a screenshot-only UPI deposit with txnRef empty and the image as baseImage, then clears the amount, closes and counts it filed", async () => {
    const { actor, submissions, opened } = harness(async () => filed)
    await opened("acc-upi")
    actor.send({ type: "field.change", field: "amount", value: "₹1,500" })
    expect(actor.getSnapshot().context.form.amount).toBe("1500")
    actor.send({ type: "screenshot.select", screenshot: png })
    actor.send({ type: "deposit.submit" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Modal: "Closed" })).toBe(true))
    // SPEC section 3, and issue 9's conformance rule: txnRef is always sent, empty when a screenshot proves the payment.
    expect(submissions[0]!.payload).toEqual({ amount: 1500, accountId: "acc-upi", type: "upi", txnRef: "", baseImage: png.dataUrl })
    expect(submissions[0]!.key).toMatch(/^deposit-/)
    expect(actor.getSnapshot().context).toMatchObject({ form: { amount: "", txnRef: "" }, screenshot: undefined, filed: 1 })
  })

  it("sends the bank modal's screenshot as `screenshot`, and the reference trimmed", async () => {
    const { actor, submissions, opened } = harness(async () => filed)
    await opened("acc-bank")
    actor.send({ type: "amount.quick", amount: 5000 })
    actor.send({ type: "field.change", field: "txnRef", value: "  N123456789012345 " })
    actor.send({ type: "screenshot.select", screenshot: png })
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(submissions).toHaveLength(1))
    expect(submissions[0]!.payload).toEqual({ amount: 5000, accountId: "acc-bank", type: "bank", txnRef: "N123456789012345", screenshot: png.dataUrl })
  })

  it("keeps the form, the server's reason and the key when the server refuses, so a retry is the same deposit; a new form gets a new key", async () => {
    let attempt = 0
    const { actor, submissions, opened } = harness(async () => (attempt++ === 0 ? Promise.reject(closedAccount) : filed))
    await opened("acc-bank")
    actor.send({ type: "amount.quick", amount: 5000 })
    actor.send({ type: "field.change", field: "txnRef", value: "N123456789012345" })
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.refusal).toEqual({ reason: "Conflict", message: closedAccount.message }))
    expect(actor.getSnapshot().matches({ Modal: { Open: "Editing" } })).toBe(true)
    expect(actor.getSnapshot().context.form).toEqual({ amount: "5000", txnRef: "N123456789012345" })
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Modal: "Closed" })).toBe(true))
    expect(submissions[1]!.key).toBe(submissions[0]!.key)
    await opened("acc-upi")
    actor.send({ type: "field.change", field: "amount", value: "200" })
    actor.send({ type: "field.change", field: "txnRef", value: "412345678902" })
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(submissions).toHaveLength(3))
    expect(submissions[2]!.key).not.toBe(submissions[0]!.key)
  })

  it("keeps a deposit on its way when the accounts list loads again", async () => {
    const { actor, opened } = harness(() => new Promise(() => {}))
    await opened("acc-upi")
    actor.send({ type: "field.change", field: "amount", value: "500" })
    actor.send({ type: "field.change", field: "txnRef", value: "412345678901" })
    actor.send({ type: "deposit.submit" })
    actor.send({ type: "accounts.reload" })
    expect(actor.getSnapshot().value).toEqual({ Accounts: "Loading", Modal: { Open: "Submitting" } })
  })
})
