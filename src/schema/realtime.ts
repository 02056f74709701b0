import { Schema } from "effect"

/**
 * What the server's sockets send (SPEC section 7, realtime). The client
 * decodes every message with these before it acts on it: a message that does
 * not match is dropped, never trusted. (The odds batches are beside the books
 * they carry, in betting.ts, so the first page needs none of them.)
 */

/**
 * The event named by the user's id: something about their account changed (a deposit approved, a bet settled), and
 * what to tell the player, when it is news they did not ask for this moment (a waiting bet matched).
 */
export const UserChanged = Schema.Struct({ reason: Schema.String, at: Schema.Finite, message: Schema.optionalKey(Schema.String) })
export type UserChanged = typeof UserChanged.Type

/**
 * `catalogue`: events started, finished or were added (every list reloads); with `eventId` (an event's `_id`), only
 * that event's markets changed (a line opened in play): only its page reloads.
 */
export const CatalogueChanged = Schema.Struct({ at: Schema.Finite, eventId: Schema.optionalKey(Schema.String) })
export type CatalogueChanged = typeof CatalogueChanged.Type

/** `desk` (staff on /admin only): a record of a topic changed (a new request, a claim, a decision, a market, an audit line). */
export const DeskChanged = Schema.Struct({
  topic: Schema.Literals(["deposits", "withdrawals", "approvals", "markets", "players", "audit", "settings"]),
  id: Schema.String,
  at: Schema.Finite
})
export type DeskChanged = typeof DeskChanged.Type
