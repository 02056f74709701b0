import { assign, type EventObject, fromCallback, fromPromise, sendParent, setup } from "xstate"
import type { EventFairness, Score } from "../schema/betting.ts"
import { unprovided } from "./unprovided.ts"

/**
 * The event on screen, live (the event page, a race on /racing): while the
 * flow is open its prices stream into the odds books (each odds cell reads
 * its own) and its score into this machine; a change of the catalogue
 * (events started or finished, or this event's markets: a line opened) is
 * passed to the app, which reloads the sports list; a line opened on another
 * event is not. Its fairness (the commitment to its seed) is loaded once; a
 * failure leaves it out.
 */
export interface LiveEventContext {
  readonly eventId: string
  readonly score: Score | undefined
  readonly fairness: EventFairness | undefined
}

export type LiveEventEvent =
  | { type: "score.update"; score: Score }
  /** The odds channel's `catalogue` message; `eventId`: only that event's markets changed. */
  | { type: "catalogue.changed"; eventId?: string }

export const liveEventMachine = setup({
  types: { context: {} as LiveEventContext, events: {} as LiveEventEvent, input: {} as { eventId: string } },
  actors: {
    /** Watches the event on the odds channel; its score as `score.update`. */
    watchEvent: fromCallback<EventObject, { eventId: string }>(unprovided("liveEvent", "watchEvent")),
    /** The odds channel's `catalogue` message, as `catalogue.changed`. */
    watchCatalogue: fromCallback<EventObject>(unprovided("liveEvent", "watchCatalogue")),
    /** The event's commitment (and seed, once settled): GET /event-fairness. */
    loadFairness: fromPromise<EventFairness, { eventId: string }>(unprovided("liveEvent", "loadFairness"))
  },
  actions: {
    /** The app (the parent of every flow) reloads the sports, spread over a few seconds. */
    tellApp: sendParent({ type: "catalogue.changed" })
  },
  guards: {
    /** The whole catalogue changed, or this event's markets. */
    concernsThisEvent: ({ context, event }) => event.type === "catalogue.changed" && (event.eventId === undefined || event.eventId === context.eventId)
  }
}).createMachine({
  id: "liveEvent",
  context: ({ input }) => ({ eventId: input.eventId, score: undefined, fairness: undefined }),
  invoke: [
    { id: "watchEvent", src: "watchEvent", input: ({ context }) => ({ eventId: context.eventId }) },
    { id: "watchCatalogue", src: "watchCatalogue" },
    {
      id: "loadFairness",
      src: "loadFairness",
      input: ({ context }) => ({ eventId: context.eventId }),
      onDone: { actions: assign({ fairness: ({ event }) => event.output }) },
      // Without it the page shows no fairness line; nothing else depends on it.
      onError: {}
    }
  ],
  initial: "Watching",
  states: {
    Watching: {
      on: {
        "score.update": { actions: assign({ score: ({ event }) => event.score }) },
        "catalogue.changed": { guard: "concernsThisEvent", actions: "tellApp" }
      }
    }
  }
})
