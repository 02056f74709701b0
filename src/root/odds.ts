import { type EventObject, fromCallback } from "xstate"
import { odds } from "../services/odds.ts"

/**
 * The odds channel as callback actors, for the flows that follow it. The
 * odds store lives in src/services/odds.ts; these only turn its listeners
 * into machine events (loaded with the first page that watches an event).
 */

/**
 * The `catalogue` message (events started, finished or were added) as an event of `type`, with the `eventId` it
 * names, if any (one event's markets changed): the machine decides whether it concerns what it shows.
 */
export const watchCatalogue = (type: string) =>
  fromCallback<EventObject>(({ sendBack }) =>
    odds.onCatalogue((change) => sendBack(change.eventId === undefined ? { type } : { type, eventId: change.eventId })))

/** An event's score from the odds channel, as `score.update`; the event is watched while the actor runs. */
export const watchScore = fromCallback<EventObject, { eventId: string }>(({ input, sendBack }) => {
  const push = () => {
    const score = odds.score(input.eventId)
    if (score) sendBack({ type: "score.update", score })
  }
  const stopWatching = odds.watch(input.eventId)
  const stopListening = odds.subscribeScore(input.eventId, push)
  push()
  return () => {
    stopListening()
    stopWatching()
  }
})
