import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { EVERY_RECORD, type RecordCommand, type Rule, type RecordContext, recordMachine } from "../../../src/desk/machines/record.machine.ts"
import type { Written } from "../../../src/machines/writes.ts"
import type { Failure } from "../../../src/schema/errors.ts"
import { callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "../harness.ts"

interface Player {
  readonly id: string
  readonly status: "active" | "suspended"
}

/** A note needs words; suspending needs an active player. */
const rules: Readonly<Record<string, Rule<Player>>> = {
  note: (fields: Readonly<Record<string, string>>) => (fields.note?.trim() ? undefined : "Write the note first."),
  suspend: (_: Readonly<Record<string, string>>, player: Player) => (player.status === "active" ? undefined : "The player is suspended already.")
}
const machine = recordMachine<Player>(rules)
const active: Player = { id: "p1", status: "active" }
const unreachable: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const conflict: Failure = { code: 409, message: "This changed meanwhile.", reason: "Conflict" }

const seen = new Set<string>()

const checkStep = (step: Step) => {
  const before: RecordContext<Player> = step.before.context
  const context: RecordContext<Player> = step.after.context
  // The record is loaded by its id whenever Loading is entered (or entered again: a reload while loading).
  const load = invokedWith(step, "load")
  if (entered(step, "Loading")) expect(load?.input).toBe(context.id)
  if (load) expect([isIn(step.after, "Loading"), load.input]).toEqual([true, context.id])
  else expect(entered(step, "Loading")).toBe(false)
  // A command is sent exactly when a valid one is run, with the fields and the attempt's key.
  const run = invokedWith(step, "run")
  if (entered(step, "Ready.Running")) {
    const command = run?.input as RecordCommand
    expect(command).toEqual({ id: "p1", command: context.pending!.command, fields: context.fields, key: context.pending!.key })
    expect(command.key.startsWith(`${command.command}-`)).toBe(true)
    seen.add(`run ${command.command}`)
    // A retry of the same command after a lost answer keeps its key.
    if (before.pending?.command === command.command) {
      expect(command.key).toBe(before.pending.key)
      seen.add("retry with the same key")
    }
  } else expect(run).toBeUndefined()
  // A command sent while loading waits for the record, then runs, or says why not, by the rule on the record that arrived.
  if (step.event.type === "command.run" && isIn(step.before, "Loading")) expect(context.queued).toBe(step.event.command)
  if (step.event.type === "xstate.done.actor.load" && before.queued !== undefined) {
    expect(context.queued).toBeUndefined()
    const problem = rules[before.queued]?.(context.fields, context.record!)
    if (problem === undefined) expect(context.pending?.command).toBe(before.queued)
    else expect([isIn(step.after, "Ready.Idle"), context.refusal?.message]).toEqual([true, problem])
    seen.add(`${problem === undefined ? "ran" : "refused"} queued ${before.queued}`)
  }
  if (step.event.type === "xstate.error.actor.load") expect(context.queued).toBeUndefined()
  // An invalid command says why and sends nothing.
  if (step.event.type === "command.run" && isIn(step.before, "Ready.Idle") && !isIn(step.after, "Ready.Running")) {
    expect(context.refusal?.message).toBe(rules[step.event.command]?.(context.fields, context.record!))
    seen.add(`refused ${step.event.command}`)
  }
  // Done: the fields are cleared and the record read again.
  if (step.event.type === "xstate.done.actor.run") expect(context).toMatchObject({ fields: {}, pending: undefined, done: { command: before.pending!.command } })
  // Only a lost answer keeps the key.
  if (step.event.type === "xstate.error.actor.run") expect(context.pending !== undefined).toBe(context.refusal?.reason === "Unreachable")
  // A failed call says why in a toast, once; a command's answer shows the server's message.
  expect(step.actions).toEqual(callToasts(step, ["load", "run"], ["run"]))
}

describe("record machine (model-based)", () => {
  it("covers every state and transition: loading, reloads on the desk's news, commands checked by their rules, refusals and retries", () => {
    const coverage = replayPaths(machine, {
      input: { id: "p1" },
      outputs: { load: [active], run: [{ data: { ok: true }, message: "Note added" }] },
      actions: { toastSuccess: () => {}, toastFailure: () => {} },
      errors: { load: [conflict], run: [unreachable, conflict] },
      events: {
        "field.change": [{ type: "field.change", field: "note", value: "Called the player" }],
        "command.run": [{ type: "command.run", command: "note" }, { type: "command.run", command: "suspend" }],
        "live.changed": [{ type: "live.changed", id: "p1" }, { type: "live.changed", id: "someone-else" }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.fields, s.context.pending?.command, s.context.queued, s.context.record !== undefined]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...seen].sort()).toEqual(["ran queued note", "ran queued suspend", "refused note", "refused queued note", "retry with the same key", "run note", "run suspend"])
    recordFlows("desk record", "One record on the desk (a player's page, a market, Today): loaded, read again when the desk hears it changed, and commands on it checked by their rules from src/domain, then sent with an Idempotency-Key per attempt.", coverage)
  })
})

describe("record machine behaviour", () => {
  it("refuses a command its rule refuses, without a call", async () => {
    const runs: Array<RecordCommand> = []
    const actor = createActor(machine.provide({
      actors: { load: fromPromise(async (): Promise<Player> => ({ id: "p1", status: "suspended" })), run: fromPromise(async ({ input }: { input: RecordCommand }): Promise<Written> => ({ data: runs.push(input), message: "" })) }
    }), { input: { id: "p1" } }).start()
    await expect.poll(() => actor.getSnapshot().matches("Ready")).toBe(true)
    actor.send({ type: "command.run", command: "suspend" })
    expect(actor.getSnapshot().context.refusal?.message).toBe("The player is suspended already.")
    expect(runs).toEqual([])
  })

  it("runs a command sent while the record is read again once it arrives, checked by the rule on the new record", async () => {
    const runs: Array<string> = []
    let status: Player["status"] = "active"
    const actor = createActor(machine.provide({
      actors: {
        load: fromPromise(async (): Promise<Player> => ({ id: "p1", status })),
        run: fromPromise(async ({ input }: { input: RecordCommand }): Promise<Written> => (runs.push(input.command), { data: null, message: "Done" }))
      },
      actions: { toastSuccess: () => {} }
    }), { input: { id: "p1" } }).start()
    await expect.poll(() => actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
    actor.send({ type: "live.changed", id: "p1" })
    actor.send({ type: "command.run", command: "suspend" })
    await expect.poll(() => runs).toEqual(["suspend"])
    // Suspended meanwhile by someone else: the kept command is refused by its rule, without a call.
    await expect.poll(() => actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
    status = "suspended"
    actor.send({ type: "live.changed", id: "p1" })
    actor.send({ type: "command.run", command: "suspend" })
    await expect.poll(() => actor.getSnapshot().context.refusal?.message).toBe("The player is suspended already.")
    expect(runs).toEqual(["suspend"])
  })

  it("reads a record of everything again whichever record of its topics changed", async () => {
    let loads = 0
    const actor = createActor(machine.provide({ actors: { load: fromPromise(async (): Promise<Player> => (loads++, active)) } }), { input: { id: EVERY_RECORD } }).start()
    await expect.poll(() => actor.getSnapshot().matches("Ready")).toBe(true)
    actor.send({ type: "live.changed", id: "market-17" })
    await expect.poll(() => loads).toBe(2)
    await expect.poll(() => actor.getSnapshot().matches("Ready")).toBe(true)
  })
})
