import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { ok } from "../../src/schema/envelope.ts"
import type { StatementQuery } from "../../src/schema/statements.ts"
import { rangeOf } from "../edge/guards.ts"
import { type StatementView, Statements } from "./Statements.ts"
import { sqlDefects } from "../edge/defects.ts"

export const StatementsHandlers = HttpApiBuilder.group(Api, "statements", Effect.fn(function*(handlers) {
  const statements = yield* Statements
  const read = (view: StatementView, query: StatementQuery) =>
    Effect.gen(function*() {
      const user = yield* CurrentUser
      const range = yield* rangeOf(query)
      return ok(yield* statements.statement(user.id, { view, ...range, includeBonus: query.isChecked === "true" }))
    })
  return handlers.handleAll(sqlDefects(handlers, {
    accountStatement: ({ query }) => read("account", query),
    transaction: ({ query }) => read("payments", query),
    resultTransaction: ({ query }) => read("results", query)
  }))
}))
