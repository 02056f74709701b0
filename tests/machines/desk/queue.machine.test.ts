import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { Page } from "../../../src/desk/machines/list.machine.ts"
import { type QueueCommand, type QueueContext, formProblem, queueMachine } from "../../../src/desk/machines/queue.machine.ts"
import { rejectionRemark } from "../../../src/domain/staff.ts"
import type { Failure } from "../../../src/schema/errors.ts"
import { entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "../harness.ts"

interface Row {
  readonly _id: string
  readonly status: string
}

const machine = queueMachine<Row, { readonly id: string }>()
const page = { items: [{ _id: "r1", status: "pending" }, { _id: "r2", status: "pending" }], next: "r2", total: 3 }
const decided: Failure = { code: 409, message: "This deposit request was already approved by support at 27 Nov 14:02.", reason: "AlreadyDecided" }
const held: Failure = { code: 409, message: "support is working on this deposit request.", reason: "ClaimedByOther" }
const unreachable: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const forbidden: Failure = { code: 403, message: "Your role may not do this.", reason: "Forbidden" }

type Context = QueueContext<Row, { readonly id: string }>

const seen = new Set<string>()

const checkStep = (step: Step) => {
  const before: Context = step.before.context
  const context: Context = step.after.context
  // The page is asked for with the query (empty fields left out) and its cursor.
  const load = invokedWith(step, "loadPage")
  if (load) {
    expect(isIn(step.after, "List.Loading")).toBe(true)
    expect(load.input).toEqual({ kind: context.kind, query: Object.fromEntries(Object.entries(context.query).filter(([, v]) => v.trim() !== "")), after: context.cursors[context.cursors.length - 1] })
  } else expect(entered(step, "List.Loading")).toBe(false)
  // Every desk change reloads the list.
  if (step.event.type === "live.changed") expect(load).toBeDefined()
  // The request shown is the one selected.
  const detail = invokedWith(step, "loadDetail")
  if (detail) expect(detail.input).toEqual({ kind: context.kind, id: context.selected })
  if (isIn(step.after, "Request.Shown")) expect(context.detail).toBeDefined()
  // The keyboard walks the rows of the page.
  if (step.event.type === "queue.next" && before.page.items.length > 0) {
    const at = before.page.items.findIndex((row) => row._id === before.selected)
    expect(context.selected).toBe(before.page.items[at === -1 ? 0 : Math.min(at + 1, before.page.items.length - 1)]!._id)
    seen.add("keyboard")
  }
  // A decision is sent with what the form says and the attempt's key; a rejection always carries its reason.
  const act = invokedWith(step, "act")
  if (act) {
    const command = act.input as QueueCommand
    expect(command).toMatchObject({ kind: context.kind, id: context.selected, action: context.pending!.action, key: context.pending!.key })
    if (command.action === "reject") {
      expect(formProblem(context.kind, context.form, "reject")).toBeUndefined()
      expect(command.remark).toBe(rejectionRemark(context.form.reason, context.form.note))
    }
    if (command.action === "approve" && context.kind === "withdrawal") expect(command.reference).toBe(context.form.reference.trim())
    if (command.action === "approve" && context.kind === "deposit") expect(command.reference).toBeUndefined()
    seen.add(`${context.kind} ${command.action}`)
    if (before.pending?.action === command.action) {
      expect(command.key).toBe(before.pending.key)
      seen.add("retry keeps the key")
    }
  }
  // Someone decided or holds it first: told who, and the request is read again.
  if (step.event.type === "xstate.error.actor.act") {
    const reason = context.refusal?.reason
    if (reason === "AlreadyDecided" || reason === "ClaimedByOther") {
      expect(isIn(step.after, "Request.Loading")).toBe(true)
      seen.add(`lost to another: ${reason}`)
    }
    expect(context.pending !== undefined).toBe(reason === "Unreachable")
  }
  // A form confirmed with a problem says so and sends nothing.
  if (step.event.type === "form.confirm" && !act && (isIn(step.before, "Request.Shown.Rejecting") || isIn(step.before, "Request.Shown.Approving"))) {
    expect(context.refusal?.reason).toBe("InvalidInput")
  }
}

const events = {
  "query.change": [{ type: "query.change", field: "player", value: "ravi" }],
  "request.select": [{ type: "request.select", id: "r1" }],
  "live.changed": [{ type: "live.changed", id: "r1" }, { type: "live.changed", id: "r9" }],
  "field.change": [
    { type: "field.change", field: "reason", value: "Payment not received" },
    { type: "field.change", field: "reference", value: "HDFC-778812" }
  ]
} as const

describe("queue machine (model-based)", () => {
  it("covers every state and transition of both queues: pages, the request, claims, decisions, forms, lost races and lost answers", () => {
    const coverage = replayPaths(machine as never, {
      input: { kind: "deposit", query: { status: "pending" } },
      from: [{ label: "withdrawals", input: { kind: "withdrawal", query: { status: "pending" } } }],
      outputs: { loadPage: [page], loadDetail: [{ id: "r1" }], act: [{ ok: true }] },
      errors: { act: [decided, held, unreachable, forbidden] },
      events: events as never,
      serialize: (s) =>
        JSON.stringify([s.value, s.context.kind, s.context.selected, Math.min(s.context.cursors.length, 2), s.context.page.items.length, s.context.form.reason !== "", s.context.form.reference !== "", s.context.pending?.action, s.context.query.player ?? ""]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...seen].sort()).toEqual([
      "deposit approve",
      "deposit claim",
      "deposit reject",
      "deposit release",
      "keyboard",
      "lost to another: AlreadyDecided",
      "lost to another: ClaimedByOther",
      "retry keeps the key",
      "withdrawal approve",
      "withdrawal claim",
      "withdrawal reject",
      "withdrawal release"
    ])
    recordFlows("desk queue", "The deposit and withdrawal queues: pages reloaded on every desk change, the request shown (keyboard: next and previous), claim and let go, approve (a withdrawal: paid with the bank's reference), reject with a reason; a lost race says who won and reads the request again; a lost answer keeps the key.", coverage)
  })
})

describe("queue machine behaviour", () => {
  it("approves a deposit at once, but asks a withdrawal for the bank's reference first", async () => {
    const sent: Array<QueueCommand> = []
    const make = (kind: "deposit" | "withdrawal") =>
      createActor(machine.provide({
        actors: {
          loadPage: fromPromise(async (): Promise<Page<Row>> => page),
          loadDetail: fromPromise(async ({ input }: { input: { readonly kind: "deposit" | "withdrawal"; readonly id: string } }) => ({ id: input.id })),
          act: fromPromise(async ({ input }: { input: QueueCommand }): Promise<unknown> => sent.push(input))
        }
      }), { input: { kind, query: {} } }).start()
    const deposit = make("deposit")
    deposit.send({ type: "request.select", id: "r1" })
    await expect.poll(() => deposit.getSnapshot().matches({ Request: "Shown" })).toBe(true)
    deposit.send({ type: "request.approve" })
    await expect.poll(() => sent.length).toBe(1)
    expect(sent[0]).toMatchObject({ kind: "deposit", id: "r1", action: "approve" })
    const withdrawal = make("withdrawal")
    withdrawal.send({ type: "request.select", id: "r2" })
    await expect.poll(() => withdrawal.getSnapshot().matches({ Request: "Shown" })).toBe(true)
    withdrawal.send({ type: "request.approve" })
    expect(withdrawal.getSnapshot().matches({ Request: { Shown: "Approving" } })).toBe(true)
    withdrawal.send({ type: "form.confirm" })
    expect(withdrawal.getSnapshot().context.refusal?.message).toBe("Enter the bank's reference of the payout.")
    withdrawal.send({ type: "field.change", field: "reference", value: " UTR-1 " })
    withdrawal.send({ type: "form.confirm" })
    await expect.poll(() => sent.length).toBe(2)
    expect(sent[1]).toMatchObject({ kind: "withdrawal", id: "r2", action: "approve", reference: "UTR-1" })
  })
})
