import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { Database } from "../db/database.ts"

const startedAt = Date.now()

/** Health for load balancers: 200 when the database answers within 2 s, 503 otherwise. */
export const SystemHandlers = HttpApiBuilder.group(Api, "system", Effect.fn(function*(handlers) {
  const { engine, ping } = yield* Database
  return handlers.handleAll({
    health: () =>
      ping.pipe(
        Effect.timeout("2 seconds"),
        Effect.mapError(() => refuse("Unavailable", "The database is not answering.")),
        Effect.as(ok({ status: "ok" as const, database: engine, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }))
      )
  })
}))
