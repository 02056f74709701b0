import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromPromise } from "xstate"
import { activityMachine } from "../../src/machines/activity.machine.ts"
import { type ProtectionCommand, type ProtectionContext, protectionMachine, sectionOf, stageOf } from "../../src/machines/protection.machine.ts"
import { realityCheckMachine, untilDue } from "../../src/machines/realityCheck.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import type { ActivityStatement, Limit, Protection, RealityCheck } from "../../src/schema/protection.ts"
import { actionParams, callToasts, expectFullCoverage, invokedWith, recordFlows, replayPaths, standIn, type Step } from "./harness.ts"

const NOW = "2026-03-10T10:00:00.000Z"
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString()
const HOUR = 3_600_000

const limit = (kind: Limit["kind"], period: Limit["period"], over: Partial<Limit> = {}): Limit => ({
  kind, period, amount: null, inForceSince: null, used: 0, remaining: null, resetsAt: null, pending: null, ...over
})
const noLimits = (["deposit", "loss"] as const).flatMap((kind) => (["day", "week", "month"] as const).map((period) => limit(kind, period)))
const check = (over: Partial<RealityCheck> = {}): RealityCheck => ({
  minutes: 0, sessionStartedAt: NOW, elapsedSeconds: 0, netResult: 0, nextAt: null, due: false, ...over
})
const state = (limits: ReadonlyArray<Limit> = noLimits, over: Partial<Protection> = {}): Protection => ({
  serverTime: NOW, limits, realityCheck: check(), timeOut: null, selfExclusion: null, closed: null, ...over
})
const withDayLimit = (over: Partial<Limit>) => noLimits.map((l) => (l.kind === "deposit" && l.period === "day" ? { ...l, amount: 1000, inForceSince: NOW, ...over } : l))

const settled = state(withDayLimit({}))
/** A raise to ₹5,000 asked for an hour ago: confirmable in 23 hours. */
const pending = state(withDayLimit({ pending: { amount: 5000, requestedAt: at(-HOUR), confirmableAt: at(23 * HOUR) } }))
const confirmable = state(withDayLimit({ pending: { amount: 5000, requestedAt: at(-25 * HOUR), confirmableAt: at(-HOUR) } }))
const statement: ActivityStatement = { months: [{ month: "2026-03", deposits: 1000, withdrawals: 0, stakes: 500, netResult: -200, timeSpentSeconds: 3600 }] }
const coolingOff: Failure = { code: 422, message: "You can confirm this change from 11 Mar 2026, 15:30 IST, 24 hours after you asked for it.", reason: "CoolingOff" }

/** A child that takes every event and does nothing (the reality check and the statement are tested on their own). */
const quiet = createMachine({ id: "quiet" })

/** What each step of the walk must have done, whatever the path. */
const checkStep = (sent: Set<string>) => (step: Step) => {
  const before = step.before.context as ProtectionContext
  const after = step.after.context as ProtectionContext
  const run = invokedWith(step, "run")
  if (run) {
    // A change goes out as the machine holds it: a typed limit parsed to rupees, others as chosen.
    const command = run.input as ProtectionCommand
    expect(command).toEqual(after.command)
    if (command.type === "setLimit" && step.event.type === "limit.save") expect(command.amount).toBe(5000)
    if (command.type === "setLimit" && step.event.type === "limit.remove") expect(command.amount).toBeNull()
    if (command.type === "timeOut" || command.type === "selfExclude") expect(step.before.hasTag("confirming")).toBe(true)
    sent.add(command.type)
  }
  // The session ends exactly when a self-exclusion went through.
  const ended = actionParams(step, "endSession").length > 0
  expect(ended).toBe(step.event.type === "xstate.done.actor.run" && before.command?.type === "selfExclude")
  if (step.event.type === "xstate.error.actor.run") expect(after.refusal).toEqual({ section: sectionOf(before.command!), message: coolingOff.message })
  // A change that went through shows the server's message, once; a refusal shows in its section only.
  expect(step.actions.filter((a) => a.type.startsWith("toast"))).toEqual(callToasts(step, [], ["run"]))
  // Nothing is in hand when idle; something is while confirming or saving.
  if (step.after.matches({ Command: "Idle" })) expect(after.command).toBeUndefined()
  else expect(after.command).toBeDefined()
  // Confirmable means every pending change has reached the server's confirmable time.
  if (step.after.matches({ CoolingOff: "Confirmable" })) expect(after.protection!.limits.filter((l) => l.pending).every((l) => stageOf(l, after.now) === "confirmable")).toBe(true)
}

describe("protection machine (model-based)", () => {
  it("covers every state and transition: reads, changes (a time-out or self-exclusion confirmed first), refusals, cooling-off", () => {
    const sent = new Set<string>()
    const coverage = replayPaths(protectionMachine, {
      input: {},
      check: checkStep(sent),
      actors: { realityCheck: standIn(realityCheckMachine, quiet), activity: standIn(activityMachine, quiet) },
      actions: { endSession: vi.fn<() => void>(), toastSuccess: () => {} },
      outputs: { load: [settled, pending, confirmable], run: [{ data: settled, message: "Your limit applies now." }] },
      errors: { run: [coolingOff], load: [{ code: 0, message: "offline", reason: "Unreachable" }] },
      events: {
        "limit.change": [{ type: "limit.change", key: "deposit.day", value: "5,000" }],
        "limit.save": [{ type: "limit.save", key: "deposit.day" }],
        "limit.remove": [{ type: "limit.remove", key: "deposit.day" }],
        "limit.confirm": [{ type: "limit.confirm", key: "deposit.day" }],
        "realityCheck.set": [{ type: "realityCheck.set", minutes: 15 }],
        "timeOut.change": [{ type: "timeOut.change", days: 7 }],
        "selfExclusion.change": [{ type: "selfExclusion.change", months: 12 }],
        "protection.loaded": [{ type: "protection.loaded", protection: confirmable }]
      },
      // What guards read, coarsely: whether the typed amount is one, which kind of change is in hand, the first limit's stage.
      serialize: (s) => {
        const c = s.context as ProtectionContext
        const first = c.protection?.limits[0]
        return JSON.stringify([
          s.value,
          c.form.limits["deposit.day"] !== "",
          c.command === undefined ? "none" : c.command.type === "selfExclude" ? "selfExclude" : "other",
          first ? stageOf(first, c.now) : "unread"
        ])
      }
    })
    expectFullCoverage(coverage)
    expect([...sent].sort()).toEqual(["confirmLimit", "requestReturn", "selfExclude", "setLimit", "setRealityCheck", "timeOut"])
    recordFlows(
      "protection",
      "A signed-in player's protection, held by the layout: the server's state, read again after every change; one change at a time (limits, confirming a raised one, the reality-check interval, a break once confirmed; a refusal kept for its section; self-exclusion ends the session); a raised or removed limit Pending until its confirmable time, then Confirmable.",
      coverage
    )
  })
})

const harness = (run: (command: ProtectionCommand) => Promise<Protection>, loaded: Protection = settled) => {
  const commands: Array<ProtectionCommand> = []
  const endSession = vi.fn<() => void>()
  const actor = createActor(
    protectionMachine.provide({
      actors: {
        realityCheck: standIn(realityCheckMachine, quiet),
        activity: standIn(activityMachine, quiet),
        load: fromPromise(async () => loaded),
        run: fromPromise(({ input }: { input: ProtectionCommand }) => (commands.push(input), run(input).then((data) => ({ data, message: "Your limit applies now." }))))
      },
      actions: { endSession, toastSuccess: () => {} }
    }),
    { input: {} }
  ).start()
  return { actor, commands, endSession }
}

describe("protection machine behaviour", () => {
  it("parses the free-text amount, refuses what is not one without calling, and sends rupees", async () => {
    const { actor, commands } = harness(async () => pending)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Data: "Ready" })).toBe(true))
    actor.send({ type: "limit.save", key: "deposit.day" })
    expect(actor.getSnapshot().context.fieldErrors["deposit.day"]).toBe("Enter an amount")
    actor.send({ type: "limit.change", key: "deposit.day", value: "five thousand" })
    expect(actor.getSnapshot().context.fieldErrors["deposit.day"]).toBeUndefined()
    actor.send({ type: "limit.save", key: "deposit.day" })
    expect(actor.getSnapshot().context.fieldErrors["deposit.day"]).toMatch(/Enter an amount in rupees/)
    actor.send({ type: "limit.change", key: "deposit.day", value: "₹ 5,000.50" })
    actor.send({ type: "limit.save", key: "deposit.day" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Command: "Idle" })).toBe(true))
    expect(commands).toEqual([{ type: "setLimit", kind: "deposit", period: "day", amount: 5000.5 }])
    // The box empties; the page shows the pending change the server answered.
    expect(actor.getSnapshot().context.form.limits["deposit.day"]).toBe("")
    expect(actor.getSnapshot().matches({ CoolingOff: "Pending" })).toBe(true)
  })

  it("moves a pending change to confirmable at the server's time, not the browser's", async () => {
    vi.useFakeTimers()
    try {
      const { actor } = harness(async () => pending, pending)
      await vi.advanceTimersByTimeAsync(0)
      expect(actor.getSnapshot().matches({ CoolingOff: "Pending" })).toBe(true)
      const limit = actor.getSnapshot().context.protection!.limits[0]!
      expect(stageOf(limit, actor.getSnapshot().context.now)).toBe("waiting")
      await vi.advanceTimersByTimeAsync(23 * HOUR - 1)
      expect(actor.getSnapshot().matches({ CoolingOff: "Pending" })).toBe(true)
      await vi.advanceTimersByTimeAsync(1)
      expect(actor.getSnapshot().matches({ CoolingOff: "Confirmable" })).toBe(true)
      expect(stageOf(limit, actor.getSnapshot().context.now)).toBe("confirmable")
    } finally {
      vi.useRealTimers()
    }
  })

  it("keeps the server's refusal for its section, and confirms a time-out or self-exclusion before sending it", async () => {
    const { actor, commands, endSession } = harness(async (command) => (command.type === "confirmLimit" ? Promise.reject(coolingOff) : state()), pending)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Data: "Ready" })).toBe(true))
    actor.send({ type: "limit.confirm", key: "deposit.day" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.refusal).toEqual({ section: "limits", message: coolingOff.message }))

    actor.send({ type: "timeOut.change", days: 42 })
    actor.send({ type: "timeOut.submit" })
    expect(actor.getSnapshot().hasTag("confirming")).toBe(true)
    actor.send({ type: "command.cancel" })
    expect(commands).toHaveLength(1)
    actor.send({ type: "selfExclusion.change", months: 60 })
    actor.send({ type: "selfExclusion.submit" })
    actor.send({ type: "command.confirm" })
    await vi.waitFor(() => expect(endSession).toHaveBeenCalledTimes(1))
    expect(commands).toEqual([{ type: "confirmLimit", kind: "deposit", period: "day" }, { type: "selfExclude", months: 60 }])
    expect(actor.getSnapshot().context.refusal).toBeUndefined()
  })
})

describe("realityCheck machine (model-based)", () => {
  const on = check({ minutes: 15, nextAt: at(15 * 60_000) })
  const due = check({ minutes: 15, nextAt: at(0), due: true, elapsedSeconds: 900, netResult: -250 })
  it("covers every state and transition: off, waiting for the server's time, the dialog and its three answers", () => {
    const sync = (c: RealityCheck) => ({ type: "realityCheck.sync" as const, check: c, now: Date.parse(NOW) })
    const showStatement = vi.fn<() => void>()
    const coverage = replayPaths(realityCheckMachine, {
      actions: { showStatement, logout: vi.fn<() => void>(), reload: vi.fn<() => void>(), loaded: vi.fn<() => void>() },
      outputs: { continueSession: [state(noLimits, { realityCheck: on })] },
      errors: { continueSession: [{ code: 0, message: "We could not reach the server.", reason: "Unreachable" } satisfies Failure] },
      events: { "realityCheck.sync": [sync(check()), sync(on), sync(due)] },
      check: (step) => {
        const ran = (name: string) => actionParams(step, name).length > 0
        // The server is read again exactly when the timer runs out; each answer goes where it belongs.
        expect(ran("reload")).toBe(step.event.type.startsWith("xstate.after."))
        expect(ran("loaded")).toBe(step.event.type === "xstate.done.actor.continueSession")
        expect(ran("showStatement")).toBe(step.event.type === "realityCheck.statement")
        expect(ran("logout")).toBe(step.event.type === "realityCheck.logout")
        // A read opens the dialog only on the server's word (it stays open after a failed answer, to try again).
        if (step.event.type === "realityCheck.sync" && step.after.matches("Due")) expect((step.after.context as { check: RealityCheck }).check.due).toBe(true)
      },
      serialize: (s) => JSON.stringify([s.value, s.context.check?.due, s.context.check?.minutes, s.context.error !== undefined])
    })
    expectFullCoverage(coverage)
    recordFlows(
      "realityCheck",
      "The reality check of the session (a child of protection): the server says when the next reminder is due; a timer waits until then and asks for a read; a reminder the server confirms opens the dialog (time since sign-in, net result) until Continue, View statement (both start the next interval on the server) or Log out.",
      coverage
    )
  })

  it("waits until the server's time, asks for a read, opens on the server's word and tells the server the answer", async () => {
    vi.useFakeTimers()
    try {
      const reload = vi.fn<() => void>()
      const loaded = vi.fn<() => void>()
      const continued = vi.fn(async () => state(noLimits, { realityCheck: on }))
      const actor = createActor(realityCheckMachine.provide({ actors: { continueSession: fromPromise(continued) }, actions: { reload, loaded, showStatement: () => {} } })).start()
      actor.send({ type: "realityCheck.sync", check: on, now: Date.parse(NOW) })
      expect(untilDue(actor.getSnapshot().context)).toBe(15 * 60_000)
      await vi.advanceTimersByTimeAsync(15 * 60_000 - 1)
      expect(reload).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(reload).toHaveBeenCalledTimes(1)
      expect(actor.getSnapshot().matches("Checking")).toBe(true)
      actor.send({ type: "realityCheck.sync", check: due, now: Date.parse(NOW) })
      expect(actor.getSnapshot().hasTag("dialog")).toBe(true)
      actor.send({ type: "realityCheck.continue" })
      await vi.advanceTimersByTimeAsync(0)
      expect(continued).toHaveBeenCalledTimes(1)
      expect(loaded).toHaveBeenCalledWith(expect.anything(), { protection: state(noLimits, { realityCheck: on }) })
      expect(actor.getSnapshot().matches("Checking")).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it("View statement goes to the statement and answers the server; Log out ends the session and ignores later reads", async () => {
    const showStatement = vi.fn<() => void>()
    const logout = vi.fn<() => void>()
    const continued = vi.fn(async () => state(noLimits, { realityCheck: on }))
    const actor = createActor(
      realityCheckMachine.provide({ actors: { continueSession: fromPromise(continued) }, actions: { reload: () => {}, loaded: () => {}, showStatement, logout } })
    ).start()
    actor.send({ type: "realityCheck.sync", check: due, now: Date.parse(NOW) })
    actor.send({ type: "realityCheck.statement" })
    expect(showStatement).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(continued).toHaveBeenCalledTimes(1))
    actor.send({ type: "realityCheck.sync", check: due, now: Date.parse(NOW) })
    actor.send({ type: "realityCheck.logout" })
    expect(logout).toHaveBeenCalledTimes(1)
    actor.send({ type: "realityCheck.sync", check: due, now: Date.parse(NOW) })
    expect(actor.getSnapshot().matches("LoggingOut")).toBe(true)
    expect(actor.getSnapshot().hasTag("dialog")).toBe(false)
  })
})

describe("activity machine (model-based)", () => {
  it("covers every state and transition: loaded when asked, again on request, a failure offers another try", () => {
    const coverage = replayPaths(activityMachine, {
      outputs: { loadActivity: [statement] },
      actions: { toastFailure: () => {} },
      // A failure is a toast, once.
      check: (step) => expect(step.actions).toEqual(callToasts(step, ["loadActivity"]))
    })
    expectFullCoverage(coverage)
    recordFlows("activity", "The activity statement (a child of protection): loaded when a view asks, loaded again on request; a failure can be tried again.", coverage)
  })
})
