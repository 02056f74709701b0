import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { Page } from "../../../src/desk/machines/list.machine.ts"
import { type QueueCommand, queueMachine } from "../../../src/desk/machines/queue.machine.ts"
import type { Written } from "../../../src/machines/writes.ts"

// The queue's model-based walk (both kinds, every race and retry) is left out until its model is small enough to
// run in seconds: the parallel list × request product made it take minutes. The desk's e2e spec drives the flow.
interface Row {
  readonly _id: string
  readonly status: string
}

const machine = queueMachine<Row, { readonly id: string }>()
const page = { items: [{ _id: "r1", status: "pending" }, { _id: "r2", status: "pending" }], next: "r2", total: 3 }

describe("queue machine behaviour", () => {
  it("approves a deposit at once, but asks a withdrawal for the bank's reference first", async () => {
    const sent: Array<QueueCommand> = []
    const make = (kind: "deposit" | "withdrawal") =>
      createActor(machine.provide({
        actors: {
          loadPage: fromPromise(async (): Promise<Page<Row>> => page),
          loadDetail: fromPromise(async ({ input }: { input: { readonly kind: "deposit" | "withdrawal"; readonly id: string } }) => ({ id: input.id })),
          act: fromPromise(async ({ input }: { input: QueueCommand }): Promise<Written> => ({ data: sent.push(input), message: "Approved" }))
        },
        actions: { toastSuccess: () => {}, toastFailure: () => {} }
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
