import { describe, expect, it, vi } from "vitest"
import { createActor, type SnapshotFrom } from "xstate"
import { otpCountdownMachine, RESEND_SECONDS } from "../../src/machines/otpCountdown.machine.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { type Effect, recorder, type WalkStep } from "./walk.ts"

type Countdown = SnapshotFrom<typeof otpCountdownMachine>

/** Resend is allowed (no `waiting` tag) exactly when the count is at 0; the count stays within 0..10. */
export const invariants = (s: Countdown) => {
  expect(s.context.remaining).toBeGreaterThanOrEqual(0)
  expect(s.context.remaining).toBeLessThanOrEqual(RESEND_SECONDS)
  expect(s.hasTag("waiting")).toBe(s.context.remaining > 0)
  expect(s.matches("Counting")).toBe(s.context.remaining > 0)
}

/** Each simulated second takes one off the count; the last one tells the parent, once. */
const effects = ({ before, event, after }: WalkStep<Countdown>): Array<Effect> => {
  if (event.type === "countdown.start" && before?.matches("Idle")) expect(after.context.remaining).toBe(RESEND_SECONDS)
  if (!event.type.startsWith("xstate.after.")) return []
  expect(after.context.remaining).toBe(before!.context.remaining - 1)
  return before!.context.remaining === 1 ? [{ kind: "do", name: "finished" }] : []
}

describe("otpCountdown machine (model-based)", () => {
  it("covers every state and transition on a simulated clock; resend only at 0, the parent told once", () => {
    const world = recorder()
    const coverage = replayPaths(otpCountdownMachine, {
      world,
      actions: { finished: world.act("finished") },
      invariants,
      effects
    })
    expectFullCoverage(coverage)
    recordFlows("otpCountdown", "The OTP resend countdown: 10 s, one second at a time; the resend button waits on the `waiting` tag.", coverage)
  })

  it("waits 10 s, one second at a time, then tells its parent", () => {
    vi.useFakeTimers()
    const finished = vi.fn()
    const actor = createActor(otpCountdownMachine.provide({ actions: { finished } }), { input: undefined }).start()
    actor.send({ type: "countdown.start" })
    expect(actor.getSnapshot().context.remaining).toBe(RESEND_SECONDS)
    expect(actor.getSnapshot().hasTag("waiting")).toBe(true)
    vi.advanceTimersByTime(3000)
    expect(actor.getSnapshot().context.remaining).toBe(7)
    vi.advanceTimersByTime(6999)
    expect(actor.getSnapshot().hasTag("waiting")).toBe(true)
    expect(finished).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(actor.getSnapshot().matches("Idle")).toBe(true)
    expect(finished).toHaveBeenCalledTimes(1)
    vi.useRealTimers()
  })
})
