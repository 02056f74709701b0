import { Context, Effect, Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { type EventOdds, MarketBook, type MarketPricePayload, type Score } from "../../src/schema/betting.ts"
import { decodeRows } from "../db/rows.ts"
import type { ApiError } from "../../src/schema/envelope.ts"
import type { Taken } from "./matchedStakes.ts"

/** A change the feed publishes: a market's new book, an event's new score, or both. */
export interface OddsUpdate {
  readonly eventId: string
  readonly market?: MarketBook
  readonly score?: Score
  /** When the odds leader wrote the book (this server's clock); undefined: just now, in this process. */
  readonly writtenAt?: number
}

/**
 * Where live prices come from. The built-in provider is the simulator
 * (server/odds/Simulator.ts, wired in server/odds/layer.ts); a real feed implements the same service.
 * Display reads are synchronous: every server keeps the latest book of every
 * open market in memory. Bet placement checks a price against `storedBook`
 * where several servers share one source, else against `book`: the same
 * book whichever server takes the bet.
 */
export class OddsFeed extends Context.Service<OddsFeed, {
  /** The latest book of a market this server has, by its feed id (what it shows). */
  book(marketId: string): MarketBook | undefined
  /**
   * Where several servers share one source, the book as the source published it last, stored for all of them: a
   * column for the bet's own read (JSON, null when there is none), so no server checks a price against a book it
   * has not heard of yet. Undefined in one process, whose `book` is the source's.
   */
  readonly storedBook: ((marketId: string) => Statement.Fragment) | undefined
  /**
   * When this server's books were last known to be the source's (its last read of the store, or its last write as
   * the leader), for readiness; undefined where the source runs in this process, whose books are the source's.
   */
  readonly syncedAt: (() => number) | undefined
  /** Every open market of an event with the live score. */
  eventOdds(eventId: string): EventOdds
  score(eventId: string): Score | undefined
  /** Hears every change; returns the unsubscribe function. */
  subscribe(listener: (update: OddsUpdate) => void): () => void
  /** Hears that events started, finished or were added (the catalogue changed); with `eventId`, only that event's markets changed. */
  onCatalogueChange(listener: (eventId?: string) => void): () => void
  /** Tells the feed how many clients watch an event, so it spends its updates where they are seen. */
  watch(eventId: string, delta: 1 | -1): void
  /** An operator's manual price or status for a market (bookmaker desks run markets by hand). */
  setPrice(input: MarketPricePayload): Effect.Effect<MarketBook, ApiError>
  /**
   * A bet was matched on an exchange market (by its feed id): its stakes come off the ladder at the source (with
   * several servers, the leader's), which publishes the smaller sizes. Told after the bet committed; never fails it.
   */
  take(marketId: string, taken: Taken): Effect.Effect<void>
  /** Reloads the markets from the database (after settlement or new fixtures). */
  readonly reload: Effect.Effect<void>
}>()("khel/OddsFeed") {}

const StoredBook = Schema.Struct({ book: Schema.NullOr(MarketBook) })

/** The book a decision about a market (feed id) is made on: with several servers the stored one, else this process's. */
export const decidingBook = (sql: SqlClient.SqlClient, feed: OddsFeed["Service"], externalId: string) =>
  feed.storedBook
    ? sql`SELECT ${feed.storedBook(externalId)} AS book`.pipe(decodeRows(StoredBook), Effect.map(([row]) => row?.book ?? undefined))
    : Effect.succeed(feed.book(externalId))
