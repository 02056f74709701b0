import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { canActOn } from "../../src/domain/bonus.ts"
import { type BonusContext, type BonusRequest, bonusMachine } from "../../src/machines/bonus.machine.ts"
import { type Bonus, BonusActionPayload, type BonusData } from "../../src/schema/bonus.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { callToasts, entered, expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "./harness.ts"

const offer = (id: string, status: Bonus["status"], wagered = 0): Bonus => ({
  _id: id, code: "WELCOME100", title: "100% welcome bonus", amount: 1000, wageringRequired: 5000, wagered, wageringLeft: Math.max(0, 5000 - wagered), status,
  createdAt: "2026-01-01T00:00:00.000Z", activatedAt: null, finishedAt: null
})
const welcome = { percent: 100, cap: 10_000, wagerTimes: 5 }
const listed: BonusData = { bonusBalance: 0, bonuses: [offer("b-available", "available"), offer("b-active", "active", 1200), offer("b-done", "completed", 5000)], welcome }
const activated: BonusData = { bonusBalance: 1000, bonuses: [offer("b-available", "active")], welcome }
const moved: Failure = { code: 409, message: "This bonus is claimed.", reason: "Conflict" }
const lost: Failure = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
const refused: Failure = { code: 422, message: "Bonuses are paused for your account.", reason: "Refused" }

/** The actions the walk sent, so the request checks are known to have run for each. */
const sent = new Set<string>()

const checkStep = (step: Step) => {
  const before: BonusContext = step.before.context
  const context: BonusContext = step.after.context
  // One action at a time: nothing pending while idle, a forfeit waiting for its confirmation, a request with its own key.
  if (isIn(step.after, "Action.Idle")) expect(context.pending).toBeUndefined()
  if (isIn(step.after, "Action.Confirming")) expect(context.pending?.action).toBe("forfeit")
  if (isIn(step.after, "Action.Running")) expect(context.pending?.key).toMatch(new RegExp(`^bonus-${context.pending?.action}-`))
  if (step.event.type === "xstate.done.actor.act") expect(context.data).toEqual(step.event.output.data)

  // A request goes out once the action is asked for (and, for a forfeit, confirmed), for a bonus in a status it applies to.
  const act = invokedWith(step, "act")
  if (entered(step, "Action.Running")) {
    const pending = context.pending!
    const bonus = before.data?.bonuses.find((b) => b._id === pending.bonusId)
    expect(bonus && canActOn(pending.action, bonus.status)).toBe(true)
    expect(act?.input).toEqual(pending)
    expect(Schema.decodeUnknownSync(BonusActionPayload)({ bonusId: pending.bonusId })).toEqual({ bonusId: pending.bonusId })
    sent.add(pending.action)
  } else expect(act).toBeUndefined()

  // The list loads when the page opens, when asked, when money moves, and after a refusal that leaves it stale.
  const stale = step.event.type === "xstate.error.actor.act" && ["Conflict", "NotFound", "Unreachable"].includes(step.event.error.reason)
  const loads = stale || ["xstate.init", "bonus.reload", "balances.changed"].includes(step.event.type)
  expect(invokedWith(step, "loadBonuses") !== undefined).toBe(loads)
  // A load's or an action's failure is a toast, once; an action's answer shows the server's message.
  expect(step.actions).toEqual(callToasts(step, ["loadBonuses", "act"], ["act"]))
}

describe("bonus machine (model-based)", () => {
  it("covers every state and transition: the list, activate, claim, forfeit with its confirmation, and refusals by reason", () => {
    const coverage = replayPaths(bonusMachine, {
      outputs: { loadBonuses: [listed], act: [{ data: activated, message: "Bonus activated" }] },
      actions: { toastSuccess: () => {}, toastFailure: () => {} },
      errors: { act: [moved, refused] },
      events: {
        "bonus.activate": [{ type: "bonus.activate", bonusId: "b-available" }],
        "bonus.claim": [{ type: "bonus.claim", bonusId: "b-done" }],
        "bonus.forfeit": [{ type: "bonus.forfeit", bonusId: "b-active" }]
      },
      serialize: (s) => JSON.stringify([s.value, s.context.data?.bonuses.map((b: Bonus) => b.status), s.context.pending?.action]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    expect([...sent].sort()).toEqual(["activate", "claim", "forfeit"])
    recordFlows(
      "bonus",
      "/bonus: the player's bonuses and bonus wallet; activate, claim and forfeit (after a confirmation) where the bonus's status allows it, one at a time with an Idempotency-Key each; a bonus that moved meanwhile (Conflict) or an answer lost (Unreachable) loads the list again; the list reloads when the player's money moves.",
      coverage
    )
  })
})

const harness = (act: (input: BonusRequest) => Promise<BonusData>) => {
  const requests: Array<BonusRequest> = []
  let loads = 0
  const actor = createActor(
    bonusMachine.provide({
      actors: {
        loadBonuses: fromPromise(async () => (loads++, listed)),
        act: fromPromise(({ input }: { input: BonusRequest }) => (requests.push(input), act(input).then((data) => ({ data, message: "Bonus activated" }))))
      },
      actions: { toastSuccess: () => {}, toastFailure: () => {} }
    })
  ).start()
  const ready = () => vi.waitFor(() => expect(actor.getSnapshot().matches({ List: "Ready" })).toBe(true))
  return { actor, requests, loads: () => loads, ready }
}

describe("bonus machine behaviour", () => {
  it("activates an available bonus and shows the bonuses as the server answers them", async () => {
    const { actor, requests, ready } = harness(async () => activated)
    await ready()
    actor.send({ type: "bonus.activate", bonusId: "b-available" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Action: "Idle" })).toBe(true))
    expect(requests).toEqual([{ action: "activate", bonusId: "b-available", key: expect.stringMatching(/^bonus-activate-/) }])
    expect(actor.getSnapshot().context.data).toEqual(activated)
  })

  it("sends nothing for an action the bonus's status does not allow, or for a bonus not listed", async () => {
    const { actor, requests, ready } = harness(async () => activated)
    await ready()
    actor.send({ type: "bonus.claim", bonusId: "b-active" })
    actor.send({ type: "bonus.activate", bonusId: "b-done" })
    actor.send({ type: "bonus.forfeit", bonusId: "nope" })
    expect(actor.getSnapshot().matches({ Action: "Idle" })).toBe(true)
    expect(requests).toEqual([])
  })

  it("forfeits only once the player confirms; cancelling sends nothing", async () => {
    const { actor, requests, ready } = harness(async () => listed)
    await ready()
    actor.send({ type: "bonus.forfeit", bonusId: "b-active" })
    expect(actor.getSnapshot().matches({ Action: "Confirming" })).toBe(true)
    actor.send({ type: "forfeit.cancel" })
    expect(actor.getSnapshot().context.pending).toBeUndefined()
    actor.send({ type: "bonus.forfeit", bonusId: "b-active" })
    actor.send({ type: "forfeit.confirm" })
    await vi.waitFor(() => expect(requests).toHaveLength(1))
    expect(requests[0]).toMatchObject({ action: "forfeit", bonusId: "b-active" })
  })

  it("loads the list again when the bonus moved meanwhile or the answer was lost, not for another refusal", async () => {
    const failures = [moved, lost, refused]
    const { actor, loads, ready } = harness(async () => Promise.reject(failures.shift()))
    await ready()
    actor.send({ type: "bonus.claim", bonusId: "b-done" })
    await vi.waitFor(() => expect(loads()).toBe(2))
    expect(actor.getSnapshot().context.refusal).toEqual({ reason: "Conflict", message: moved.message })
    await ready()
    actor.send({ type: "bonus.claim", bonusId: "b-done" })
    await vi.waitFor(() => expect(loads()).toBe(3))
    await ready()
    actor.send({ type: "bonus.claim", bonusId: "b-done" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.refusal?.reason).toBe("Refused"))
    expect(loads()).toBe(3)
  })

  it("keeps an action on its way when the player's money moves and the list reloads", async () => {
    const { actor, ready, loads } = harness(() => new Promise(() => {}))
    await ready()
    actor.send({ type: "bonus.claim", bonusId: "b-done" })
    actor.send({ type: "balances.changed" })
    expect(actor.getSnapshot().value).toEqual({ List: "Loading", Action: "Running" })
    await vi.waitFor(() => expect(loads()).toBe(2))
  })
})
