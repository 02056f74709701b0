import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { sqlDefect } from "../edge/defects.ts"
import { Signals } from "./Signals.ts"

/** The operator's list of integrity signals (desk staff: src/schema/integrity.ts). */
export const IntegrityAdminHandlers = HttpApiBuilder.group(Api, "integrityAdmin", Effect.fn(function*(handlers) {
  const signals = yield* Signals
  return handlers.handle("signals", ({ query }) =>
    Effect.gen(function*() {
      return ok(yield* sqlDefect(signals.list({ kind: query.kind, userId: query.user, before: query.before })))
    }))
}))
