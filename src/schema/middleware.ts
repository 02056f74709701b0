import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { ApiError } from "./envelope.ts"
import type { Role } from "./user.ts"

/**
 * Renders every `ApiError`, bad payload and defect as a `FailureEnvelope`.
 * Declared on the whole API so every handler may fail with `ApiError`.
 */
export class Envelopes extends HttpApiMiddleware.Service<Envelopes>()("khel/Envelopes", {
  error: ApiError
}) {}

/** The signed-in account behind a bearer token. */
export class CurrentUser extends Context.Service<CurrentUser, {
  readonly id: string
  readonly role: Role
  readonly sessionId: string
}>()("khel/CurrentUser") {}

/** Bearer sessions: an unknown, expired or revoked token is HTTP 401. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentUser }>()("khel/Authentication", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ApiError
}) {}

/**
 * The operator's roles only (SPEC section 6): a player's token is 403. A group
 * declares it before `Authentication`, so it runs inside it and reads `CurrentUser`.
 */
export class OperatorOnly extends HttpApiMiddleware.Service<OperatorOnly, { requires: CurrentUser }>()("khel/OperatorOnly", {
  error: ApiError
}) {}
