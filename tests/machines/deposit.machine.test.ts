import { describe, expect, it, vi } from "vitest"
import { type AnyActorRef, assign, createActor, createMachine, fromPromise } from "xstate"
import type { DayRange } from "../../src/domain/ranges.ts"
import { type DepositContext, depositMachine } from "../../src/machines/deposit.machine.ts"
import type { DepositRequest, Screenshot } from "../../src/schema/payments.ts"
import { callToasts, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, standIn, type Step } from "./harness.ts"
import { depositFormMachine } from "../../src/machines/depositForm.machine.ts"

const week: DayRange = { start_date: "2026-01-01", end_date: "2026-01-07" }
const filed: DepositRequest = { _id: "d1", amount: 500, accountId: "acc-upi", type: "upi", txnRef: null, screenshot: "s1", status: "pending", remark: null, createdAt: "2026-01-01T00:00:00.000Z", decidedAt: null }
const stored: Screenshot = { _id: "s1", image: "data:image/webp;base64,UklGR" }

/** The form child as the page sees it: a snapshot with the count of deposits it filed. */
const formFiled = (filed: number) => ({ type: "xstate.snapshot.depositForm" as const, snapshot: { context: { filed } } })

const checkStep = (step: Step) => {
  const before: DepositContext = step.before.context
  const context: DepositContext = step.after.context
  // The viewer holds a screenshot exactly while it is open, its image once it is here.
  if (isIn(step.after, "StoredScreenshot.Closed")) expect(context.stored).toBeUndefined()
  if (isIn(step.after, "StoredScreenshot.Loading")) expect(context.stored).toEqual({ id: context.stored?.id, image: undefined })
  if (isIn(step.after, "StoredScreenshot.Showing")) expect(context.stored?.image).toBe(stored.image)
  expect(context.filed).toBeGreaterThanOrEqual(before.filed)

  // The list is asked for the range in context when the page opens, the range changes, money moves, or the form files a deposit.
  const filedOne = step.event.type === "xstate.snapshot.depositForm" && context.filed > before.filed
  const reloads = filedOne || ["xstate.init", "range.change", "deposits.reload", "balances.changed"].includes(step.event.type)
  expect(invokedWith(step, "loadHistory")?.input).toEqual(reloads ? context.range : undefined)
  // The stored screenshot is asked for by the id the player chose.
  expect(invokedWith(step, "loadScreenshot")?.input).toEqual(step.event.type === "stored.view" ? step.event.screenshotId : undefined)
  // A load's failure is a toast, once.
  expect(step.actions).toEqual(callToasts(step, ["loadHistory", "loadScreenshot"]))
}

describe("deposit machine (model-based)", () => {
  it("covers every state and transition: the request list, its reloads and the stored screenshot", () => {
    const coverage = replayPaths(depositMachine, {
      input: { range: week },
      actors: { depositForm: standIn(depositFormMachine, createMachine({ context: { filed: 0 } })) },
      outputs: { loadHistory: [[filed]], loadScreenshot: [stored] },
      actions: { toastFailure: () => {} },
      events: {
        "xstate.snapshot.depositForm": [formFiled(1)],
        "range.change": [{ type: "range.change", range: { start_date: "2026-01-02", end_date: "2026-01-08" } }],
        "stored.view": [{ type: "stored.view", screenshotId: "s1" }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.filed, s.context.range.start_date]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    recordFlows(
      "deposit",
      "/deposit: the deposit form (the depositForm child), the player's requests by date range — loaded again when the form files one and when the player's money moves — and a filed request's stored screenshot in the Uploaded Screenshot viewer.",
      coverage
    )
  })
})

/** A stand-in for the form: each `file` is one more deposit filed. */
const filingForm = createMachine({
  types: {} as { context: { filed: number }; events: { type: "file" } },
  context: { filed: 0 },
  on: { file: { actions: assign({ filed: ({ context }) => context.filed + 1 }) } }
})

const harness = () => {
  const ranges: Array<DayRange> = []
  const screenshots: Array<string> = []
  const actor = createActor(
    depositMachine.provide({
      actors: {
        depositForm: standIn(depositFormMachine, filingForm),
        loadHistory: fromPromise(async ({ input }: { input: DayRange }): Promise<ReadonlyArray<DepositRequest>> => (ranges.push(input), [filed])),
        loadScreenshot: fromPromise(async ({ input }: { input: string }) => (screenshots.push(input), stored))
      }
    }),
    { input: { range: week } }
  ).start()
  const form = () => actor.getSnapshot().children.depositForm as AnyActorRef
  return { actor, ranges, screenshots, form }
}

describe("deposit machine behaviour", () => {
  it("loads the list again for a new range, when the form files a deposit and when the player's money moves", async () => {
    const { actor, ranges, form } = harness()
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ History: "Ready" })).toBe(true))
    const next = { start_date: "2026-02-01", end_date: "2026-02-07" }
    actor.send({ type: "range.change", range: next })
    await vi.waitFor(() => expect(ranges).toEqual([week, next]))
    form().send({ type: "file" })
    await vi.waitFor(() => expect(ranges).toEqual([week, next, next]))
    expect(actor.getSnapshot().context.filed).toBe(1)
    actor.send({ type: "balances.changed" })
    await vi.waitFor(() => expect(ranges).toEqual([week, next, next, next]))
  })

  it("shows a filed request's stored screenshot while the list reloads beside it", async () => {
    const { actor, screenshots } = harness()
    actor.send({ type: "stored.view", screenshotId: "s1" })
    actor.send({ type: "balances.changed" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ StoredScreenshot: "Showing" })).toBe(true))
    expect(screenshots).toEqual(["s1"])
    expect(actor.getSnapshot().context.stored).toEqual({ id: "s1", image: stored.image })
    actor.send({ type: "stored.close" })
    expect(actor.getSnapshot().context.stored).toBeUndefined()
    expect(actor.getSnapshot().matches({ StoredScreenshot: "Closed" })).toBe(true)
  })
})
