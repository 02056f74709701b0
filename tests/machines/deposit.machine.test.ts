import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type DepositSubmission, depositMachine, type Screenshot } from "../../src/machines/deposit.machine.ts"
import type { DepositRequest, PaymentAccount } from "../../src/schema/payments.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const upi: PaymentAccount = { _id: "acc-upi", type: "upi", accountNumber: "khel@okaxis", accountHolderName: "Khel Gaming" }
const bank: PaymentAccount = { _id: "acc-bank", type: "bank", accountNumber: "50200012345678", accountHolderName: "Khel Gaming", bankName: "HDFC Bank", ifscCode: "HDFC0001234", accountType: "current" }
const png: Screenshot = { dataUrl: "data:image/png;base64,iVBORw0KGgo=", name: "pay.png", type: "image/png", size: 2048 }
const gif: Screenshot = { dataUrl: "data:image/gif;base64,R0lGOD", name: "pay.gif", type: "image/gif", size: 100 }
const huge: Screenshot = { ...png, size: 6 * 1024 * 1024 }
const filed: DepositRequest = { _id: "d1", amount: 500, accountId: "acc-upi", type: "upi", txnRef: "UTR1", screenshot: null, status: "pending", remark: null, createdAt: "2026-01-01T00:00:00.000Z", decidedAt: null }

describe("deposit machine (model-based)", () => {
  it("covers every state and transition of both modals", () => {
    const coverage = replayPaths(depositMachine as never, {
      actions: { warn: vi.fn(), submitted: vi.fn() },
      outputs: { submitDeposit: [filed] },
      events: {
        "deposit.open": [{ type: "deposit.open", account: upi }, { type: "deposit.open", account: bank }],
        "amount.change": [{ type: "amount.change", value: "" }, { type: "amount.change", value: "50" }, { type: "amount.change", value: "500" }],
        "amount.quick": [{ type: "amount.quick", amount: 1000 }],
        "ref.change": [{ type: "ref.change", value: "UTR1" }, { type: "ref.change", value: "" }],
        "screenshot.select": [{ type: "screenshot.select", screenshot: png }, { type: "screenshot.select", screenshot: gif }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.account?.type, s.context.amount, s.context.txnRef !== "", s.context.screenshot !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows("deposit", "Deposit by UPI and Deposit By Account: amount (typed or quick), reference or screenshot (with the Uploaded Screenshot viewer), the client checks of SPEC section 5 as warnings, submit; success clears the amount and closes.", coverage)
  })
})

const run = (submit: (input: DepositSubmission) => Promise<DepositRequest>) => {
  const warnings: Array<string> = []
  const submitted = vi.fn()
  const inputs: Array<DepositSubmission> = []
  const actor = createActor(
    depositMachine.provide({
      actors: { submitDeposit: fromPromise(({ input }: { input: DepositSubmission }) => (inputs.push(input), submit(input))) },
      actions: { warn: (_: unknown, p: { message: string }) => void warnings.push(p.message), submitted }
    })
  ).start()
  return { actor, warnings, submitted, inputs }
}

describe("deposit machine behaviour", () => {
  it("warns in the order of SPEC section 5, one message per submit", () => {
    const { actor, warnings, inputs } = run(async () => filed)
    actor.send({ type: "deposit.open", account: upi })
    actor.send({ type: "deposit.submit" })
    actor.send({ type: "amount.change", value: "99" })
    actor.send({ type: "deposit.submit" })
    actor.send({ type: "amount.quick", amount: 500 })
    actor.send({ type: "deposit.submit" })
    expect(warnings).toEqual(["Please enter amount", "Min Deposit amount is 100", "Please provide reference-id or upload a screenshot."])
    expect(inputs).toEqual([])
    expect(actor.getSnapshot().matches({ Open: "Editing" })).toBe(true)
  })

  it("refuses a file that is not PNG, JPEG or WebP, or over 5 MB, and shows an accepted one in the viewer", () => {
    const { actor, warnings } = run(async () => filed)
    actor.send({ type: "deposit.open", account: upi })
    actor.send({ type: "screenshot.select", screenshot: gif })
    actor.send({ type: "screenshot.select", screenshot: huge })
    expect(warnings).toEqual(["Please upload a PNG, JPEG or WebP image.", "The screenshot must be at most 5 MB."])
    actor.send({ type: "screenshot.view" })
    expect(actor.getSnapshot().matches({ Open: "Editing" })).toBe(true)
    actor.send({ type: "screenshot.select", screenshot: png })
    actor.send({ type: "screenshot.view" })
    expect(actor.getSnapshot().matches({ Open: "Viewing" })).toBe(true)
    actor.send({ type: "viewer.close" })
    expect(actor.getSnapshot().context.screenshot).toEqual(png)
  })

  it("sends the UPI screenshot as baseImage material with one key per opened form, then clears the amount and closes", async () => {
    const { actor, submitted, inputs } = run(async () => filed)
    actor.send({ type: "deposit.open", account: upi })
    actor.send({ type: "amount.change", value: "₹1,500" })
    expect(actor.getSnapshot().context.amount).toBe("1500")
    actor.send({ type: "screenshot.select", screenshot: png })
    actor.send({ type: "deposit.submit" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Closed")).toBe(true))
    expect(inputs[0]).toMatchObject({ accountId: "acc-upi", type: "upi", amount: "1500", txnRef: "", screenshot: png.dataUrl })
    expect(inputs[0]!.key).toMatch(/^deposit-/)
    expect(actor.getSnapshot().context).toMatchObject({ amount: "", screenshot: undefined, submitted: 1 })
    expect(submitted).toHaveBeenCalledTimes(1)
  })

  it("keeps the form and its key when the server refuses, so a retry is the same deposit", async () => {
    let attempt = 0
    const { actor, inputs } = run(async () => {
      if (attempt++ === 0) throw new Error("This deposit account is no longer available.")
      return filed
    })
    actor.send({ type: "deposit.open", account: bank })
    actor.send({ type: "amount.quick", amount: 5000 })
    actor.send({ type: "ref.change", value: "UTR77" })
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe("This deposit account is no longer available."))
    expect(actor.getSnapshot().matches({ Open: "Editing" })).toBe(true)
    expect(actor.getSnapshot().context.amount).toBe("5000")
    actor.send({ type: "deposit.submit" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Closed")).toBe(true))
    expect(inputs[1]!.key).toBe(inputs[0]!.key)
    expect(inputs[1]).toMatchObject({ type: "bank", txnRef: "UTR77", amount: "5000" })
  })
})
