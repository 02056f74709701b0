import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { sqlDefects } from "../edge/defects.ts"
import { Signals } from "./Signals.ts"

/** The operator's list of integrity signals (desk staff: src/schema/integrity.ts). */
export const IntegrityAdminHandlers = HttpApiBuilder.group(Api, "integrityAdmin", Effect.fn(function*(handlers) {
  const signals = yield* Signals
  return handlers.handleAll(sqlDefects(handlers, {
    signals: ({ query }) => Effect.map(signals.list({ kind: query.kind, userId: query.user, before: query.before }), (page) => ok(page))
  }))
}))
