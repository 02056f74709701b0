import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromPromise } from "xstate"
import { amountInput } from "../../src/domain/money.ts"
import { validateWithdrawal } from "../../src/domain/payments.ts"
import type { DayRange } from "../../src/domain/ranges.ts"
import { chosenAccount, type WithdrawalContext, type WithdrawalSubmission, withdrawalMachine } from "../../src/machines/withdrawal.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { type PaymentAccount, WithdrawalPayload, type WithdrawalRequest } from "../../src/schema/payments.ts"
import { player, quietSession } from "./fixtures.ts"
import { actionParams, callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, standIn, type Step } from "./harness.ts"
import { payoutAccountsMachine } from "../../src/machines/payoutAccounts.machine.ts"

const week: DayRange = { start_date: "2026-01-01", end_date: "2026-01-07" }
const upi: PaymentAccount = { _id: "a-upi", type: "upi", accountNumber: "meera@okaxis", accountHolderName: "Meera Iyer" }
const bank: PaymentAccount = { _id: "a-bank", type: "bank", accountNumber: "123456789012", accountHolderName: "Meera Iyer", bankName: "SBI", ifscCode: "SBIN0001234", accountType: "savings" }
const filed: WithdrawalRequest = { _id: "w1", amount: 300, accountId: "a-upi", account: upi, status: "pending", remark: null, createdAt: "2026-01-07T10:00:00.000Z", decidedAt: null }
const insufficient: Failure = { code: 422, message: "Insufficient balance: the amount is more than you can withdraw", reason: "InsufficientBalance" }
const unreachable: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }

/** The payout accounts child as the withdrawal sees it: a snapshot with the list. */
const listed = (accounts: ReadonlyArray<PaymentAccount>) => ({ type: "xstate.snapshot.payoutAccounts" as const, snapshot: { context: { accounts } } })

/** The effects the walk saw, so each check is known to have run. */
const seen = new Set<string>()

/** What every step of the walk must leave true, and the effects it must (and must not) take. */
const checkStep = (step: Step) => {
  const before: WithdrawalContext = step.before.context
  const context: WithdrawalContext = step.after.context
  // The amount is kept as the player's digits, never a formatted string.
  expect(amountInput(context.form.amount)).toBe(context.form.amount)
  if (isIn(step.after, "Form.Submitting")) expect(context.key).toMatch(/^withdrawal-/)
  if (isIn(step.after, "Form.Ready.Done")) expect(context).toMatchObject({ key: undefined, form: { amount: "" } })
  // Only a lost answer keeps the key for the retry.
  if (isIn(step.after, "Form.Ready.Refused")) expect(context.key !== undefined).toBe(context.refusal?.reason === "Unreachable")

  // The request is sent exactly when the form is submitted valid, with the payload the contract takes.
  const sent = invokedWith(step, "submit")
  if (entered(step, "Form.Submitting")) {
    const payload = { amount: Number(context.form.amount), accountId: chosenAccount(context) }
    expect(validateWithdrawal({ amount: context.form.amount, accountId: chosenAccount(context) })).toBeUndefined()
    expect(sent?.input).toEqual({ key: context.key, payload })
    expect(Schema.decodeUnknownSync(WithdrawalPayload)(payload)).toEqual(payload)
    seen.add(`submit:${payload.accountId}`)
  } else expect(sent).toBeUndefined()

  // An invalid submission shows the first rule it breaks (SPEC section 5) as a warning, and nothing else does.
  const problem = validateWithdrawal({ amount: before.form.amount, accountId: chosenAccount(before) })
  const warns = step.event.type === "withdraw.submit" && !isIn(step.before, "Form.Submitting") && problem !== undefined
  expect(actionParams(step, "warn")).toEqual(warns ? [{ message: problem }] : [])
  if (warns) seen.add(`warn:${problem}`)

  // The list is asked for the range in context when the page opens, the range changes or money moves.
  const reloads = ["xstate.init", "range.change", "balances.changed"].includes(step.event.type)
  expect(invokedWith(step, "loadHistory")?.input).toEqual(reloads ? context.range : undefined)
  // A call's failure is a toast, once; a filed request shows the server's message.
  expect(step.actions.filter((a) => a.type.startsWith("toast"))).toEqual(callToasts(step, ["loadHistory", "submit"], ["submit"]))
}

describe("withdrawal machine (model-based)", () => {
  it("covers every state and transition: the form, its refusals and the request list", () => {
    const coverage = replayPaths(withdrawalMachine, {
      input: { range: week },
      // The accounts child starts empty; its snapshots with a list are sent as events below.
      actors: { payoutAccounts: standIn(payoutAccountsMachine, createMachine({ context: { accounts: [] } })) },
      actions: { warn: vi.fn<() => void>(), toastSuccess: () => {}, toastFailure: () => {} },
      outputs: { loadHistory: [[filed]], submit: [{ data: filed, message: "Withdrawal requested" }] },
      errors: { submit: [insufficient, unreachable] },
      events: {
        "xstate.snapshot.payoutAccounts": [listed([upi, bank])],
        "field.change": [
          { type: "field.change", field: "amount", value: "300" },
          { type: "field.change", field: "accountId", value: "a-bank" }
        ],
        "range.change": [{ type: "range.change", range: { start_date: "2026-01-02", end_date: "2026-01-08" } }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.accounts.length, s.context.form, s.context.key !== undefined, s.context.range.start_date]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...seen].sort()).toEqual(["submit:a-bank", "submit:a-upi", "warn:Please choose an account to withdraw to", "warn:Please enter amount"])
    recordFlows("withdrawal", "/withdrawal: amount and payout account in context, the rules of SPEC section 5 as warnings, one Idempotency-Key per attempt (kept after a lost answer), refusals by reason (InsufficientBalance…), and the request list by date range, reloaded when the player's money moves.", coverage)
  })
})

const harness = (submit: (input: WithdrawalSubmission) => Promise<WithdrawalRequest>) => {
  const warnings: Array<string> = []
  const submissions: Array<WithdrawalSubmission> = []
  const ranges: Array<DayRange> = []
  const actor = createActor(
    withdrawalMachine.provide({
      actors: {
        // The accounts child answers with its list at once.
        payoutAccounts: standIn(payoutAccountsMachine, createMachine({ context: { accounts: [upi, bank] } })),
        loadHistory: fromPromise(async ({ input }: { input: DayRange }): Promise<ReadonlyArray<WithdrawalRequest>> => (ranges.push(input), [filed])),
        submit: fromPromise(({ input }: { input: WithdrawalSubmission }) => (submissions.push(input), submit(input).then((data) => ({ data, message: "Withdrawal requested" }))))
      },
      actions: { warn: (_: unknown, p: { message: string }) => void warnings.push(p.message), toastSuccess: () => {}, toastFailure: () => {} }
    }),
    { input: { range: week } }
  ).start()
  return { actor, warnings, submissions, ranges }
}

describe("withdrawal machine behaviour", () => {
  it("warns in the order of SPEC section 5, sends nothing, then withdraws to the first account and empties the amount", async () => {
    const { actor, warnings, submissions, ranges } = harness(async () => filed)
    actor.send({ type: "withdraw.submit" })
    actor.send({ type: "field.change", field: "amount", value: "₹50" })
    expect(actor.getSnapshot().context.form.amount).toBe("50")
    actor.send({ type: "withdraw.submit" })
    expect(warnings).toEqual(["Please enter amount", "Min Withdrawal amount is 100"])
    expect(submissions).toEqual([])
    actor.send({ type: "field.change", field: "amount", value: "300" })
    actor.send({ type: "withdraw.submit" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Form: { Ready: "Done" } })).toBe(true))
    expect(submissions[0]!.payload).toEqual({ amount: 300, accountId: "a-upi" })
    expect(submissions[0]!.key).toMatch(/^withdrawal-/)
    expect(actor.getSnapshot().context.form.amount).toBe("")
    expect(ranges).toEqual([week])
  })

  it("names the refusal by its reason, and a new attempt after it is a new request", async () => {
    const { actor, submissions } = harness(async () => Promise.reject(insufficient))
    actor.send({ type: "field.change", field: "accountId", value: "a-bank" })
    actor.send({ type: "field.change", field: "amount", value: "5000" })
    actor.send({ type: "withdraw.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Form: { Ready: "Refused" } })).toBe(true))
    expect(actor.getSnapshot().context.refusal).toEqual({ reason: "InsufficientBalance", message: insufficient.message })
    expect(actor.getSnapshot().context.form.amount).toBe("5000")
    actor.send({ type: "withdraw.submit" })
    await vi.waitFor(() => expect(submissions).toHaveLength(2))
    expect(submissions[0]!.payload.accountId).toBe("a-bank")
    expect(submissions[1]!.key).not.toBe(submissions[0]!.key)
  })

  it("keeps the key after a lost answer, so the retry is the same request; changing the form drops it", async () => {
    let attempt = 0
    const { actor, submissions } = harness(async () => (attempt++ === 0 ? Promise.reject(unreachable) : filed))
    actor.send({ type: "field.change", field: "amount", value: "300" })
    actor.send({ type: "withdraw.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Form: { Ready: "Refused" } })).toBe(true))
    actor.send({ type: "withdraw.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Form: { Ready: "Done" } })).toBe(true))
    expect(submissions[1]!.key).toBe(submissions[0]!.key)
    actor.send({ type: "field.change", field: "amount", value: "400" })
    expect(actor.getSnapshot().context.key).toBeUndefined()
  })

  it("loads the list again for a new range and when the player's money moves", async () => {
    const { actor, ranges } = harness(async () => filed)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ History: "Ready" })).toBe(true))
    const next = { start_date: "2026-02-01", end_date: "2026-02-07" }
    actor.send({ type: "range.change", range: next })
    actor.send({ type: "balances.changed" })
    await vi.waitFor(() => expect(ranges).toEqual([week, next, next]))
  })

  it("keeps a request on its way when the list reloads beside it (the held amount moves the balances at once)", async () => {
    const { actor, submissions } = harness(() => new Promise(() => {}))
    actor.send({ type: "field.change", field: "amount", value: "300" })
    actor.send({ type: "withdraw.submit" })
    actor.send({ type: "balances.changed" })
    actor.send({ type: "range.change", range: { start_date: "2026-02-01", end_date: "2026-02-07" } })
    expect(actor.getSnapshot().value).toEqual({ Form: "Submitting", History: "Loading" })
    expect(submissions).toHaveLength(1)
  })

  it("takes no input while a request is on its way: a change or a second request leaves it alone", async () => {
    const { actor, submissions, warnings } = harness(() => new Promise(() => {}))
    actor.send({ type: "field.change", field: "amount", value: "300" })
    actor.send({ type: "withdraw.submit" })
    const sent = actor.getSnapshot().context
    actor.send({ type: "field.change", field: "amount", value: "500" })
    actor.send({ type: "withdraw.submit" })
    expect(actor.getSnapshot().matches({ Form: "Submitting" })).toBe(true)
    expect(actor.getSnapshot().context).toMatchObject({ form: sent.form, key: sent.key })
    expect(submissions).toHaveLength(1)
    expect(warnings).toEqual([])
  })

  it("loads the list again whenever the player is read again, though no balance shown moved (a held withdrawal paid)", async () => {
    const ranges: Array<DayRange> = []
    // The session in the system, signed in; its reload after the user's socket event answers the same balances.
    const root = createMachine({
      invoke: [
        { src: "session", systemId: "session", input: { token: undefined } },
        { src: "withdrawal", input: { range: week } }
      ]
    }).provide({
      actors: {
        session: quietSession.provide({ actors: { fetchUser: fromPromise(async () => ({ ...player })) } }),
        withdrawal: withdrawalMachine.provide({
          actors: {
            payoutAccounts: standIn(payoutAccountsMachine, createMachine({ context: { accounts: [] } })),
            loadHistory: fromPromise(async ({ input }: { input: DayRange }): Promise<ReadonlyArray<WithdrawalRequest>> => (ranges.push(input), []))
          },
          actions: { warn: () => {} }
        })
      }
    })
    const app = createActor(root).start()
    const session = app.system.get("session")
    session.send({ type: "session.signedIn", token: "t", user: player, remember: true })
    await vi.waitFor(() => expect(ranges).toHaveLength(2))
    session.send({ type: "user.changed" })
    await vi.waitFor(() => expect(ranges).toHaveLength(3))
    app.stop()
  })
})
