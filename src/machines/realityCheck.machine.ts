import { assign, fromPromise, sendParent, sendTo, setup } from "xstate"
import type { Protection, RealityCheck } from "../schema/protection.ts"
import { messageOf } from "../schema/failures.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * The reality check of the player's session (RTS 13), a child of the
 * protection flow (system id `realityCheck`). The reminder belongs to the
 * session on the server: the server says when the next one is due and
 * whether it is due now, so it holds across pages and reloads. Here a timer
 * waits until the time the server gave, then asks the parent to read the
 * server again (`protection.reload`); a reminder the server confirms as due
 * opens the dialog (time since sign-in, net result) until the player answers:
 * Continue, View statement (both tell the server, which starts the next
 * interval) or Log out.
 */
export interface RealityCheckContext {
  readonly check: RealityCheck | undefined
  /** The server's clock when `check` was read (ms): what the timer counts from. */
  readonly now: number
  /** Why telling the server failed; the dialog stays open and says so. */
  readonly error: string | undefined
}

export type RealityCheckEvent =
  /** The parent read the server: the check as it stands, and the server's clock then. */
  | { type: "realityCheck.sync"; check: RealityCheck; now: number }
  | { type: "realityCheck.continue" }
  | { type: "realityCheck.statement" }
  | { type: "realityCheck.logout" }

/** How long until the server's next reminder, from when the server was read. */
export const untilDue = (context: Pick<RealityCheckContext, "check" | "now">) =>
  context.check?.nextAt ? Math.max(0, Date.parse(context.check.nextAt) - context.now) : 0

export const realityCheckMachine = setup({
  types: {
    context: {} as RealityCheckContext,
    events: {} as RealityCheckEvent | CallFailed<"continueSession">,
    children: {} as { continueSession: "continueSession" }
  },
  actors: {
    /** Tells the server the player answered: the next reminder comes a full interval from now. */
    continueSession: fromPromise<Protection>(unprovided("realityCheck", "continueSession"))
  },
  actions: {
    /** Goes to the activity statement on /responsible-gambling. */
    showStatement: unprovidedAction("realityCheck", "showStatement"),
    /** The session ends (the session actor logs out, found by its system id). */
    logout: sendTo(({ system }) => system.get("session"), { type: "session.logout" as const }),
    /** The parent reads the server again. */
    reload: sendParent({ type: "protection.reload" }),
    /** The server's answer to Continue is the whole protection state: the parent keeps it. */
    loaded: sendParent((_, params: { protection: Protection }) => ({ type: "protection.loaded" as const, protection: params.protection }))
  },
  delays: { untilDue: ({ context }) => untilDue(context) },
  guards: {
    off: ({ context }) => !context.check || context.check.minutes === 0 || context.check.nextAt === null,
    due: ({ context }) => context.check?.due === true
  }
}).createMachine({
  id: "realityCheck",
  context: { check: undefined, now: 0, error: undefined },
  initial: "Off",
  on: {
    "realityCheck.sync": { target: ".Deciding", actions: assign({ check: ({ event }) => event.check, now: ({ event }) => event.now }) }
  },
  states: {
    /** Where the check stands, after each read of the server. */
    Deciding: {
      always: [{ guard: "off", target: "Off" }, { guard: "due", target: "Due" }, { target: "Waiting" }]
    },
    /** No reminders (the interval is off), or nothing read yet. */
    Off: {},
    Waiting: {
      after: { untilDue: { target: "Checking", actions: "reload" } }
    },
    /** Asked the server whether the reminder is due; the answer comes as `realityCheck.sync`. */
    Checking: {},
    /** The dialog is open. */
    Due: {
      tags: ["dialog"],
      on: {
        "realityCheck.continue": "Continuing",
        "realityCheck.statement": { target: "Continuing", actions: "showStatement" },
        "realityCheck.logout": { target: "LoggingOut", actions: "logout" }
      }
    },
    Continuing: {
      tags: ["dialog", "busy"],
      entry: assign({ error: undefined }),
      // The answer on its way settles it; a read in between only updates what the dialog shows.
      on: {
        "realityCheck.sync": { actions: assign({ check: ({ event }) => event.check, now: ({ event }) => event.now }) },
        "xstate.error.actor.continueSession": { target: "Due", actions: assign({ error: ({ event }) => messageOf(event.error) }) }
      },
      invoke: {
        id: "continueSession",
        src: "continueSession",
        onDone: { target: "Checking", actions: { type: "loaded", params: ({ event }) => ({ protection: event.output }) } }
      }
    },
    /** The session is ending; the flow closes with it. */
    LoggingOut: {
      on: { "realityCheck.sync": {} }
    }
  }
})
