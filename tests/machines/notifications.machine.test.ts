import { describe, expect, it } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import { NOTIFICATIONS, notificationsMachine, type PushStatus } from "../../src/machines/notifications.machine.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { entered, expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, must, recorder, settled, type WalkStep } from "./walk.ts"

type Notifications = SnapshotFrom<typeof notificationsMachine>

const blocked: Failure = { code: 0, message: NOTIFICATIONS.blocked.message, reason: "NotificationsBlocked" }
const unreachable: Failure = { code: 0, message: "We could not reach Khel. Check your connection and try again.", reason: "Unreachable" }
const input = { userId: "u1" }

/** The views' vocabulary: busy while a change is on its way, on while it is on (or being turned off), and the two dead ends. */
export const invariants = (s: Notifications) => {
  must(s.hasTag("busy") === (s.matches("Enabling") || s.matches("Disabling")), "busy exactly while changing", s.value)
  must(s.hasTag("on") === (s.matches("On") || s.matches("Disabling")), "on exactly while on", s.value)
  must(s.hasTag("blocked") === s.matches("Blocked"), "blocked exactly in Blocked", s.value)
  must(s.hasTag("unsupported") === s.matches("Unsupported"), "unsupported exactly in Unsupported", s.value)
  must(s.hasTag("checking") === s.matches("Checking"), "checking exactly in Checking", s.value)
  must(s.context.userId === "u1", "for the player it was opened for", s.context.userId)
}

/**
 * The browser is asked only when the player turns them on, never by the check; each change says how it went, a
 * refusal of the browser's says how to unblock, any other failure its own words.
 */
const effects = (step: WalkStep<Notifications>): Array<Effect> => {
  if (step.before === undefined) return [{ kind: "call", endpoint: "push status", body: input }]
  const out: Array<Effect> = []
  if (entered(step, "Enabling")) out.push({ kind: "call", endpoint: "push enable", body: input })
  if (entered(step, "Disabling")) out.push({ kind: "call", endpoint: "push disable", body: input })
  if (settled(step, "enable") === "done") out.push({ kind: "toast", level: "success", ...NOTIFICATIONS.on })
  if (settled(step, "disable") === "done") out.push({ kind: "toast", level: "success", ...NOTIFICATIONS.off })
  const failed = settled(step, "enable") === "error" || settled(step, "disable") === "error"
  if (failed && (step.event.error as Failure).reason === "NotificationsBlocked") out.push({ kind: "toast", level: "warning", ...NOTIFICATIONS.blocked })
  else if (failed) out.push({ kind: "toast", level: "warning", message: (step.event.error as Failure).message })
  if (step.before.matches("Blocked") && step.event.type === "notifications.enable") out.push({ kind: "toast", level: "warning", ...NOTIFICATIONS.blocked })
  return out
}

describe("notifications machine (model-based)", () => {
  it("covers every state and transition: the check, turning on (allowed, refused, failed) and off", () => {
    const world = recorder()
    const coverage = replayPaths(notificationsMachine, {
      input,
      world,
      actors: {
        status: world.call("push status", (i: { userId: string }) => i),
        enable: world.call("push enable", (i: { userId: string }) => i),
        disable: world.call("push disable", (i: { userId: string }) => i)
      },
      actions: {
        notifyOn: world.toast("success", NOTIFICATIONS.on),
        notifyOff: world.toast("success", NOTIFICATIONS.off),
        notifyBlocked: world.toast("warning", NOTIFICATIONS.blocked),
        warn: world.toastOf("warning")
      },
      outputs: { status: ["on", "off", "blocked", "unsupported"] satisfies Array<PushStatus> },
      errors: { enable: [blocked, unreachable], disable: [unreachable], status: [{ code: 0, message: "no worker", reason: "BadResponse" }] },
      invariants,
      effects
    })
    expectFullCoverage(coverage)
    recordFlows(
      "notifications",
      "A signed-in player's notifications on this browser, from the profile menu: the check (once the service worker is active), turning them on (the browser's permission, the subscription, the server's record; a refusal leaves them blocked), turning them off.",
      coverage
    )
  })
})

describe("notifications machine behaviour", () => {
  it("never asks the browser until the player turns them on", async () => {
    let asked = 0
    const actor = createActor(notificationsMachine.provide({
      actors: {
        status: fromPromise<PushStatus, { userId: string }>(async () => "off"),
        enable: fromPromise<void, { userId: string }>(async () => {
          asked++
        }),
        disable: fromPromise<void, { userId: string }>(async () => {})
      },
      actions: { notifyOn: () => {}, notifyOff: () => {}, notifyBlocked: () => {}, warn: () => {} }
    }), { input }).start()
    await expect.poll(() => actor.getSnapshot().value).toBe("Off")
    expect(asked).toBe(0)
    actor.send({ type: "notifications.enable" })
    await expect.poll(() => actor.getSnapshot().value).toBe("On")
    expect(asked).toBe(1)
  })
})
