import type { EventOdds, MarketBook, Score } from "../../src/schema/betting.ts"
import type { OddsFeed, OddsUpdate } from "./OddsFeed.ts"

/** A market's latest book and its place among its event's markets. */
export interface PricedMarket {
  readonly book: MarketBook
  readonly sort: number
  /** When the odds leader wrote it (this server's clock), where it came through the store: the odds channel's lag. */
  readonly writtenAt?: number
}

/** What a source of prices hands on: new books (a CLOSED one ends the market), new scores, catalogue changes. */
export interface FeedChanges {
  readonly markets: ReadonlyArray<PricedMarket>
  readonly scores: ReadonlyArray<Score>
}

/**
 * The books a server serves: the latest book of every open market and the
 * latest score of every event, as its source of prices last published them.
 * Placement checks prices here and the odds channel fans changes out from
 * here, so what a player is shown and what their bet is checked against are
 * the same book. An older version of a book never replaces a newer one
 * (changes may arrive out of order across servers).
 */
export const makeBooks = () => {
  const markets = new Map<string, PricedMarket>()
  const byEvent = new Map<string, Set<string>>()
  const scores = new Map<string, Score>()
  const listeners = new Set<(update: OddsUpdate) => void>()

  const emit = (update: OddsUpdate) => {
    for (const listener of listeners) listener(update)
  }

  const setMarket = (priced: PricedMarket) => {
    const { book } = priced
    const known = markets.get(book.marketId)
    if (known && known.book.version >= book.version && known.book.status === book.status) return
    if (book.status === "CLOSED") {
      markets.delete(book.marketId)
      byEvent.get(book.eventId)?.delete(book.marketId)
    } else {
      markets.set(book.marketId, priced)
      let ids = byEvent.get(book.eventId)
      if (!ids) byEvent.set(book.eventId, (ids = new Set()))
      ids.add(book.marketId)
    }
    emit(priced.writtenAt === undefined ? { eventId: book.eventId, market: book } : { eventId: book.eventId, market: book, writtenAt: priced.writtenAt })
  }

  const setScore = (score: Score) => {
    scores.set(score.eventId, score)
    emit({ eventId: score.eventId, score })
  }

  return {
    apply: (changes: FeedChanges) => {
      for (const market of changes.markets) setMarket(market)
      for (const score of changes.scores) setScore(score)
    },
    book: (marketId: string) => markets.get(marketId)?.book,
    score: (eventId: string) => scores.get(eventId),
    eventOdds: (eventId: string): EventOdds => ({
      eventId,
      markets: [...(byEvent.get(eventId) ?? [])]
        .map((id) => markets.get(id))
        .filter((m): m is PricedMarket => m !== undefined)
        .sort((a, b) => a.sort - b.sort)
        .map((m) => m.book),
      score: scores.get(eventId) ?? null
    }),
    /** Every market's version, to tell which books a newer source has changed. */
    versions: () => new Map([...markets].map(([id, m]) => [id, m.book.version])),
    subscribe: (listener: (update: OddsUpdate) => void) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    }
  }
}

export type Books = ReturnType<typeof makeBooks>

/**
 * What a feed serves the same way wherever its books come from: the books'
 * reads, the listeners of catalogue changes, and how many of this server's
 * clients watch each event (`onWatch` hears each change of the counts).
 */
export const serveBooks = (books: Books, onWatch: () => void = () => undefined) => {
  const catalogueListeners = new Set<(eventId?: string) => void>()
  const watching = new Map<string, number>()
  const serves: Pick<OddsFeed["Service"], "book" | "eventOdds" | "score" | "subscribe" | "onCatalogueChange" | "watch"> = {
    book: books.book,
    eventOdds: books.eventOdds,
    score: books.score,
    subscribe: books.subscribe,
    onCatalogueChange: (listener) => {
      catalogueListeners.add(listener)
      return () => catalogueListeners.delete(listener)
    },
    watch: (eventId, delta) => {
      const count = Math.max(0, (watching.get(eventId) ?? 0) + delta)
      if (count === 0) watching.delete(eventId)
      else watching.set(eventId, count)
      onWatch()
    }
  }
  return {
    serves,
    /** Clients of this server watching each event. */
    watching: watching as ReadonlyMap<string, number>,
    /** The catalogue changed; with `eventId`, only that event's markets. */
    catalogueChanged: (eventId?: string) => {
      for (const listener of catalogueListeners) listener(eventId)
    }
  }
}
