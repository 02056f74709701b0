import { assign, fromPromise, setup } from "xstate"
import type { Failure } from "../schema/errors.ts"
import type { ActivityStatement } from "../schema/protection.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * The activity statement (deposits, withdrawals, stakes, net result and time
 * spent per month, the last 12 months), a child of the protection flow
 * (system id `activity`): loaded when a view asks for it, not with every
 * read of the protection state.
 */
export interface ActivityContext {
  readonly statement: ActivityStatement | undefined
}

export type ActivityEvent = { type: "activity.load" }

export const activityMachine = setup({
  types: { context: {} as ActivityContext, events: {} as ActivityEvent | CallFailed<"loadActivity">, children: {} as { loadActivity: "loadActivity" } },
  actors: { loadActivity: fromPromise<ActivityStatement>(unprovided("activity", "loadActivity")) },
  /** Why the statement did not load (SPEC section 8). */
  actions: { toastFailure: unprovidedAction<{ error: Failure }>("activity", "toastFailure") }
}).createMachine({
  id: "activity",
  context: { statement: undefined },
  initial: "Idle",
  states: {
    Idle: { on: { "activity.load": "Loading" } },
    Loading: {
      tags: ["busy"],
      invoke: {
        id: "loadActivity",
        src: "loadActivity",
        onDone: { target: "Ready", actions: assign({ statement: ({ event }) => event.output }) }
      },
      on: { "xstate.error.actor.loadActivity": { target: "Failed", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } } }
    },
    Ready: { on: { "activity.load": "Loading" } },
    Failed: { tags: ["failed"], on: { "activity.load": "Loading" } }
  }
})
