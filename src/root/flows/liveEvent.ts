import { liveEventMachine } from "../../machines/liveEvent.machine.ts"
import { OddsApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { data, task } from "../bridge.ts"
import { watchCatalogue, watchScore } from "../odds.ts"

/** The event on screen with the odds channel (its prices into the odds books, its score, catalogue changes) and its fairness. */
export default liveEventMachine.provide({
  actors: {
    watchEvent: watchScore,
    watchCatalogue: watchCatalogue("catalogue.changed"),
    loadFairness: task(({ eventId }: { eventId: string }) =>
      data(Api.use((api) => api.call(OddsApi.endpoints.eventFairness, { query: { event_id: eventId } }))))
  }
})
