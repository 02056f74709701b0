import { assign, setup } from "xstate"
import { unprovidedAction } from "./unprovided.ts"

/** Seconds before another OTP may be requested (SPEC section 9). */
export const RESEND_SECONDS = 10

/**
 * The resend countdown: `countdown.start` counts down from 10 s, one second
 * at a time (a named delay that re-enters its state); the resend button is
 * disabled while the `waiting` tag is on.
 */
export const otpCountdownMachine = setup({
  types: {
    context: {} as { remaining: number; seconds: number },
    events: {} as { type: "countdown.start" },
    input: {} as { seconds?: number } | undefined
  },
  actions: {
    /** Told when the wait is over; the sign-in modal provides it to hear back. */
    finished: unprovidedAction("otpCountdown", "finished")
  },
  guards: {
    /** A second is left after this one. */
    moreToGo: ({ context }) => context.remaining > 1
  },
  delays: { second: 1000 }
}).createMachine({
  id: "otpCountdown",
  context: ({ input }) => ({ remaining: 0, seconds: input?.seconds ?? RESEND_SECONDS }),
  initial: "Idle",
  states: {
    Idle: {
      on: { "countdown.start": { target: "Counting", actions: assign({ remaining: ({ context }) => context.seconds }) } }
    },
    Counting: {
      tags: ["waiting"],
      after: {
        second: [
          { guard: "moreToGo", target: "Counting", reenter: true, actions: assign({ remaining: ({ context }) => context.remaining - 1 }) },
          { target: "Idle", actions: [assign({ remaining: 0 }), "finished"] }
        ]
      }
    }
  }
})
