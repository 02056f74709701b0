import { assign, fromPromise, setup } from "xstate"
import type { RacingSport } from "../schema/sports.ts"
import { racing } from "./racing.actors.ts"

/** /racing's hierarchy (sport -> countries -> tracks -> races): loads once, again after a failure or when races change. */
export interface RacingContext {
  readonly sports: ReadonlyArray<RacingSport>
}

export type RacingEvent = { type: "racing.reload" }

export const racingMachine = setup({
  types: { context: {} as RacingContext, events: {} as RacingEvent },
  actors: { loadRacing: fromPromise<ReadonlyArray<RacingSport>>(racing.loadRacing) }
}).createMachine({
  id: "racing",
  context: { sports: [] },
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
    Failed: { on: { "racing.reload": "Loading" } }
  }
})
