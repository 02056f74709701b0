import { describe, expect, it, vi } from "vitest"
import { createActor } from "xstate"
import { otpCountdownMachine, RESEND_SECONDS } from "../../src/machines/otpCountdown.machine.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

describe("otpCountdown machine (model-based)", () => {
  it("covers every state and transition", () => {
    const coverage = replayPaths(otpCountdownMachine as never, { actions: { finished: vi.fn() } })
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
