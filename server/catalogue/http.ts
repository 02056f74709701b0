import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { Catalogue } from "./Catalogue.ts"
import { Results } from "./Results.ts"

export const SportsHandlers = HttpApiBuilder.group(Api, "sports", Effect.fn(function*(handlers) {
  const catalogue = yield* Catalogue
  return handlers.handleAll({
    sportsData: () => Effect.map(catalogue.sportsData, (data) => ok(data))
  })
}))

export const ResultsHandlers = HttpApiBuilder.group(Api, "results", Effect.fn(function*(handlers) {
  const results = yield* Results
  return handlers.handleAll({
    results: ({ query }) => Effect.map(results.page(query), (page) => ok(page))
  })
}))
