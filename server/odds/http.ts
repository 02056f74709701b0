import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import type { Fancy } from "../../src/schema/betting.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { HISTORY_STEP_MS } from "../../src/domain/priceHistory.ts"
import { Draws } from "./Draws.ts"
import { OddsFeed } from "./OddsFeed.ts"
import { PriceHistory } from "./PriceHistory.ts"
import { Catalogue } from "../catalogue/Catalogue.ts"

/** Public reads: an event's live prices and score, its fairness, its fancy lines, the racing hierarchy, a market's price history. */
export const OddsHandlers = HttpApiBuilder.group(Api, "odds", Effect.fn(function*(handlers) {
  const feed = yield* OddsFeed
  const catalogue = yield* Catalogue
  const draws = yield* Draws
  const history = yield* PriceHistory
  return handlers.handleAll({
    eventOdds: ({ query }) => Effect.succeed(ok(feed.eventOdds(query.event_id))),
    eventFairness: ({ query }) =>
      Effect.flatMap(Effect.orDie(draws.fairness(query.event_id)), (fairness) => (fairness ? Effect.succeed(ok(fairness)) : refuse("NotFound", "No such event."))),
    fancies: ({ query }) =>
      Effect.gen(function*() {
        const rows = yield* catalogue.fancyMarkets(query.event_id)
        const fancies = rows.flatMap((row): Array<Fancy> => {
          const book = feed.book(row.externalId)
          if (!book || book.status === "CLOSED") return []
          const runner = book.runners[0]
          return [{
            _id: row.id,
            marketId: row.externalId,
            name: row.name,
            status: book.status,
            selectionId: runner?.selectionId ?? "",
            yes: runner?.back[0] ?? null,
            no: runner?.lay[0] ?? null
          }]
        })
        return ok(fancies)
      }),
    racing: () => Effect.map(catalogue.racing, (data) => ok(data)),
    priceHistory: ({ query }) =>
      Effect.gen(function*() {
        const series = yield* history.of(query.market_id)
        if (!series) return yield* refuse("NotFound", "There is no price chart for this market: it is not an open exchange market.")
        return ok({ marketId: query.market_id, now: yield* Clock.currentTimeMillis, step: HISTORY_STEP_MS, ...series })
      })
  })
}))
