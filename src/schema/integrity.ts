import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Requires, StaffAuthentication } from "./middleware.ts"

/**
 * Integrity signals: what the site noticed that the operator should look at
 * (docs/security.md, "Integrity signals").
 *
 * - `duplicate_utr`: a payment reference (UTR) already used on a pending or approved deposit was filed again (refused).
 * - `near_duplicate_utr`: a reference one digit away from, or with two neighbouring digits swapped from, another deposit's.
 * - `shared_payout_account`: a player tried to add a UPI id or bank account another player already holds (refused).
 * - `shared_device`, `shared_address`: a referred player signed in from a device or address their referrer used
 *   (the referral reward is withheld).
 */
export const SignalKind = Schema.Literals(["duplicate_utr", "near_duplicate_utr", "shared_payout_account", "shared_device", "shared_address"])
export type SignalKind = typeof SignalKind.Type

export const SignalPlayer = Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String })
export type SignalPlayer = typeof SignalPlayer.Type

export const IntegritySignal = Schema.Struct({
  _id: Schema.String,
  kind: SignalKind,
  /** Every player the signal involves (one for a player's own reused reference). */
  players: Schema.Array(SignalPlayer),
  /** What was reused or shared: the reference, the payout account, the device id, the address. */
  subject: Schema.String,
  /** One line for the operator: what happened and what the site did. */
  detail: Schema.String,
  /** Ids to follow, such as `depositIds` or `referredUserId`. */
  context: Schema.Record(Schema.String, Schema.Unknown),
  createdAt: Schema.String
})
export type IntegritySignal = typeof IntegritySignal.Type

/** Newest first; `next` is the `before` of the following page, null on the last. */
export const SignalPage = Schema.Struct({ signals: Schema.Array(IntegritySignal), next: Schema.NullOr(Schema.String) })
export type SignalPage = typeof SignalPage.Type

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** `kind` and `user` (a player id) narrow the list; `before` is a signal id: the page after it. */
export const SignalsQuery = Schema.Struct({
  kind: Schema.optionalKey(SignalKind),
  user: Schema.optionalKey(Text(64)),
  before: Schema.optionalKey(Text(64))
})
export type SignalsQuery = typeof SignalsQuery.Type

/** The desk's staff: every staff role weighs requests and players by these (src/domain/staff.ts). */
export class IntegrityAdminApi extends HttpApiGroup.make("integrityAdmin")
  .add(HttpApiEndpoint.get("signals", "/signals", { query: SignalsQuery, success: Envelope(SignalPage) }).annotate(Requires, "players.read"))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
{}
