import { Schema } from "effect"
import { MarketBook, Score } from "./betting.ts"

/**
 * What the server's sockets send (SPEC section 7, realtime). The client
 * decodes every message with these before it acts on it: a message that does
 * not match is dropped, never trusted.
 */

/** The event named by the user's id: something about their account changed (a deposit approved, a bet settled). */
export const UserChanged = Schema.Struct({ reason: Schema.String, at: Schema.Finite })
export type UserChanged = typeof UserChanged.Type

/** `odds`: the prices and scores that changed since the last batch, conflated (the latest of each). */
export const OddsBatch = Schema.Struct({ markets: Schema.Array(MarketBook), scores: Schema.Array(Score) })
export type OddsBatch = typeof OddsBatch.Type

/** `catalogue`: events started, finished or were added. */
export const CatalogueChanged = Schema.Struct({ at: Schema.Finite })
export type CatalogueChanged = typeof CatalogueChanged.Type
