import { assign, type EventObject, fromCallback, fromPromise, setup } from "xstate"
import type { RacingSport } from "../schema/sports.ts"
import { unprovided } from "./unprovided.ts"

/**
 * /racing's hierarchy (sport -> countries -> tracks -> races): loads once,
 * again after a failure, and when the odds channel says races started,
 * finished or were scheduled (`watchCatalogue`).
 */
export interface RacingContext {
  readonly sports: ReadonlyArray<RacingSport>
}

export type RacingEvent = { type: "racing.reload" }

export const racingMachine = setup({
  types: { context: {} as RacingContext, events: {} as RacingEvent },
  actors: {
    loadRacing: fromPromise<ReadonlyArray<RacingSport>>(unprovided("racing", "loadRacing")),
    /** The odds channel's `catalogue` message, as `racing.reload`. */
    watchCatalogue: fromCallback<EventObject>(unprovided("racing", "watchCatalogue"))
  }
}).createMachine({
  id: "racing",
  context: { sports: [] },
  invoke: { id: "watchCatalogue", src: "watchCatalogue" },
  initial: "Loading",
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadRacing",
        src: "loadRacing",
        onDone: { target: "Ready", actions: assign({ sports: ({ event }) => event.output }) },
        onError: "Failed"
      }
    },
    Ready: { on: { "racing.reload": "Loading" } },
    Failed: { tags: ["failed"], on: { "racing.reload": "Loading" } }
  }
})
