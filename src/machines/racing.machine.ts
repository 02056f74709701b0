import { type EventObject, fromCallback, fromPromise, setup } from "xstate"
import { listsRace } from "../domain/racing.ts"
import type { RacingSport } from "../schema/sports.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided } from "./unprovided.ts"

/**
 * /racing's hierarchy (sport -> countries -> tracks -> races): loads once,
 * again after a failure, and when the odds channel says races started,
 * finished or were scheduled (`watchCatalogue`); a change of one event's
 * markets only when that event is one of its races.
 */
export interface RacingContext {
  readonly sports: ReadonlyArray<RacingSport>
}

/**
 * The page's Try again, or the odds channel's `catalogue` message; with `eventId` (only that event's markets changed),
 * a reload only if it is one of the races.
 */
export type RacingEvent = { type: "racing.reload"; eventId?: string }

const racingSetup = setup({
  types: { context: {} as RacingContext, events: {} as RacingEvent },
  actors: {
    loadRacing: fromPromise<ReadonlyArray<RacingSport>>(unprovided("racing", "loadRacing")),
    /** The odds channel's `catalogue` message, as `racing.reload`. */
    watchCatalogue: fromCallback<EventObject>(unprovided("racing", "watchCatalogue"))
  },
  guards: {
    /** The whole catalogue changed, or the markets of a race it lists. */
    concernsRaces: ({ context, event }) => event.eventId === undefined || listsRace(context.sports, event.eventId)
  }
})

export const racingMachine = racingSetup.createMachine({
  id: "racing",
  context: { sports: [] },
  invoke: { id: "watchCatalogue", src: "watchCatalogue" },
  ...listRegion(racingSetup, {
    // Not while the races load: the load in flight finishes.
    settledOn: { "racing.reload": { guard: "concernsRaces", target: "Loading" } },
    load: { id: "loadRacing", src: "loadRacing" },
    done: { sports: ({ event }) => event.output },
    failedTags: ["failed"]
  })
})
