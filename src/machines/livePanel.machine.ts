import { assign, type EventObject, fromCallback, setup } from "xstate"
import type { Score } from "../schema/betting.ts"
import { unprovided } from "./unprovided.ts"

/**
 * The right sidebar's live panel (SPEC section 4): the score, the TV frame,
 * or closed. The Score and Tv toggles switch between them (the active one
 * collapses the panel), the collapse button closes it. While open it follows
 * the event's live score from the odds channel.
 */
export interface LivePanelContext {
  readonly eventId: string
  readonly score: Score | undefined
}

export type LivePanelEvent =
  | { type: "panel.score" }
  | { type: "panel.tv" }
  | { type: "panel.collapse" }
  | { type: "score.update"; score: Score }

export const livePanelMachine = setup({
  types: {
    context: {} as LivePanelContext,
    events: {} as LivePanelEvent,
    input: {} as { eventId: string }
  },
  actors: {
    /** The event's score as `score.update` events. */
    watchScore: fromCallback<EventObject, { eventId: string }>(unprovided("livePanel", "watchScore"))
  }
}).createMachine({
  id: "livePanel",
  context: ({ input }) => ({ eventId: input.eventId, score: undefined }),
  initial: "Score",
  on: {
    "score.update": { actions: assign({ score: ({ event }) => event.score }) }
  },
  states: {
    Score: {
      tags: ["open", "score"],
      invoke: { id: "watchScore", src: "watchScore", input: ({ context }) => ({ eventId: context.eventId }) },
      on: { "panel.tv": "Tv", "panel.score": "Closed", "panel.collapse": "Closed" }
    },
    Tv: {
      tags: ["open", "tv"],
      on: { "panel.score": "Score", "panel.tv": "Closed", "panel.collapse": "Closed" }
    },
    Closed: {
      on: { "panel.score": "Score", "panel.tv": "Tv" }
    }
  }
})
