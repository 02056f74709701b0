import { liveEventMachine } from "../../machines/liveEvent.machine.ts"
import { watchCatalogue, watchScore } from "../odds.ts"

/** The event on screen with the odds channel: its prices into the odds books, its score, catalogue changes. */
export default liveEventMachine.provide({
  actors: { watchEvent: watchScore, watchCatalogue: watchCatalogue({ type: "catalogue.changed" }) }
})
