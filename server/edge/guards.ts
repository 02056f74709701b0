import { Effect, type Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { resolveRange } from "../../src/domain/ranges.ts"
import { CurrentUser } from "../../src/schema/middleware.ts"
import { refuse } from "../../src/schema/envelope.ts"
import { Roles } from "../../src/schema/user.ts"
import { sqlDefect } from "./defects.ts"
import { Idempotency, idempotencyKeyOf } from "../ledger/Idempotency.ts"

/**
 * Deposits, withdrawals, bonuses, referrals and the wallet switch are for
 * ordinary players: credit players bet against a limit and have none of them
 * (SPEC section 6), operators have no wallet.
 */
export const currentPlayer = Effect.gen(function*() {
  const user = yield* CurrentUser
  if (user.role === Roles.CREDIT_PLAYER) return yield* refuse("Forbidden", "Credit accounts have no deposits, withdrawals, bonuses or referrals. Please contact your agent.")
  if (user.role !== Roles.PLAYER) return yield* refuse("Forbidden", "This is for player accounts.")
  return user
})

export const rangeOf = (query: { readonly start_date?: string; readonly end_date?: string }) => {
  const range = resolveRange(query.start_date, query.end_date)
  return typeof range === "string" ? Effect.fail(refuse("InvalidInput", range)) : Effect.succeed(range)
}

/**
 * Runs a money-moving write under the request's Idempotency-Key (if any): a
 * replay answers the first response and moves nothing.
 */
export const idempotent = <A, I, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  owner: string,
  body: unknown,
  response: Schema.Codec<A, I>,
  write: Effect.Effect<A, E, R>
) =>
  Effect.gen(function*() {
    const idempotency = yield* Idempotency
    const key = yield* idempotencyKeyOf(request)
    return yield* sqlDefect(idempotency.run({ owner, key, request: { path: request.url, method: request.method, body }, response }, write))
  })
