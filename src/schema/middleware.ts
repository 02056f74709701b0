import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { ApiError } from "./envelope.ts"
import type { Permission, StaffRole } from "../domain/staff.ts"
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
 * What a desk endpoint requires (`.annotate(Requires, "deposits.decide")`): a
 * permission of the roles table (src/domain/staff.ts), or "staff" for what
 * every staff member may do with their own account.
 */
export class Requires extends Context.Service<Requires, Permission | "staff">()("khel/Requires") {}

/** The staff member behind a desk session (the command line acts as "cli", with every permission). */
export class CurrentStaff extends Context.Service<CurrentStaff, {
  readonly id: string
  readonly username: string
  readonly role: StaffRole
  readonly sessionId: string
  /** Where the request came from (the edge has resolved it behind trusted proxies). */
  readonly ip: string | undefined
}>()("khel/CurrentStaff") {}

/**
 * The desk's groups: a desk session (signed in at /admin, with the second
 * factor where the role needs one) of a staff role that has the endpoint's
 * permission (`Requires`). No session or an ended one is 401; a player's
 * session, an agent's, or a role without the permission is 403. An endpoint
 * that names no permission is refused to everyone.
 */
export class StaffAuthentication extends HttpApiMiddleware.Service<StaffAuthentication, { provides: CurrentStaff }>()("khel/StaffAuthentication", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ApiError
}) {}
