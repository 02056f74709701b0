import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { Catalogue } from "./Catalogue.ts"

export const SportsHandlers = HttpApiBuilder.group(Api, "sports", Effect.fn(function*(handlers) {
  const catalogue = yield* Catalogue
  return handlers.handleAll({
    sportsData: () => Effect.map(catalogue.sportsData, (data) => ok(data))
  })
}))
