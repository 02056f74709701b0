import type { Socket } from "socket.io-client"
import type { EventOdds, MarketBook, OddsBatch, PriceLevel, Score } from "../schema/betting.ts"
import type { CatalogueChanged } from "../schema/realtime.ts"
import { isCatalogueChanged, isEventOdds, isOddsBatch } from "../schema/guards.ts"

/**
 * The odds channel on the client: its own socket (SPEC section 7: "a socket
 * to an odds host"), opened when a page first watches an event. Books are
 * kept per market and scores per event in a small external store; each odds
 * cell subscribes to its own market and reads its own price, so a price
 * change re-renders that cell and nothing else.
 *
 * The server sends one batch at a time and waits for the acknowledgement;
 * we acknowledge after the next animation frame, so a busy page is sent the
 * latest prices, merged, rather than a backlog.
 */

type Listener = () => void

const books = new Map<string, MarketBook>()
const scores = new Map<string, Score>()
const marketListeners = new Map<string, Set<Listener>>()
const scoreListeners = new Map<string, Set<Listener>>()
const eventMarkets = new Map<string, Set<string>>()
const watchers = new Map<string, number>()
/** Rows watched: market id → its event and how many views show it. */
const rowWatchers = new Map<string, { readonly eventId: string; count: number }>()
const catalogueListeners = new Set<(change: CatalogueChanged) => void>()
let socket: Promise<Socket> | undefined

const notify = (listeners: Map<string, Set<Listener>>, key: string) => {
  for (const listener of listeners.get(key) ?? []) listener()
}

const applyBook = (book: MarketBook) => {
  const current = books.get(book.marketId)
  if (current && current.version >= book.version && current.status === book.status) return
  books.set(book.marketId, book)
  let markets = eventMarkets.get(book.eventId)
  if (!markets) eventMarkets.set(book.eventId, (markets = new Set()))
  markets.add(book.marketId)
  notify(marketListeners, book.marketId)
}

const applyScore = (score: Score) => {
  scores.set(score.eventId, score)
  notify(scoreListeners, score.eventId)
}

/** Applies a batch of changes; exported for tests and the bench. */
export const applyOdds = (batch: { readonly markets?: ReadonlyArray<MarketBook>; readonly scores?: ReadonlyArray<Score> }) => {
  for (const book of batch.markets ?? []) applyBook(book)
  for (const score of batch.scores ?? []) applyScore(score)
}

// Socket messages are decoded before they touch the store, by the guards compiled from their schemas (an event's
// prices need no Effect runtime); one that does not match the contract is dropped.

const afterFrame = (fn: () => void) => {
  if (typeof document !== "undefined" && document.visibilityState === "visible" && typeof requestAnimationFrame === "function") {
    requestAnimationFrame(() => fn())
  } else setTimeout(fn, 50)
}

const connect = () => {
  socket ??= import("socket.io-client").then(({ io }) => {
    const s = io({ path: "/socket.io/", transports: ["websocket", "polling"] })
    s.on("odds.snapshot", (snapshot: unknown) => {
      if (!isEventOdds(snapshot)) return
      for (const book of snapshot.markets) applyBook(book)
      if (snapshot.score) applyScore(snapshot.score)
    })
    s.on("odds", (batch: unknown, ack?: () => void) => {
      if (isOddsBatch(batch)) applyOdds(batch)
      // Acknowledged even when dropped: the server must not wait for a batch it will never hear about.
      if (ack) afterFrame(ack)
    })
    s.on("catalogue", (change: unknown) => {
      if (!isCatalogueChanged(change)) return
      for (const listener of catalogueListeners) listener(change)
    })
    // After a reconnect (socket.io's own, or `reconnect` below) the server has forgotten what we watched; it takes a
    // watch it already has as a no-op.
    let connectedBefore = false
    s.on("connect", () => {
      if (connectedBefore) {
        for (const eventId of watchers.keys()) s.emit("odds.watch", eventId)
        for (const [marketId, row] of rowWatchers) s.emit("odds.watchMarket", row.eventId, marketId)
      }
      connectedBefore = true
    })
    return s
  })
  return socket
}

export const odds = {
  /** Tries again now if the channel lost its connection (the network is back), instead of at its next back-off. */
  reconnect(): void {
    if (socket) void socket.then((s) => {
      if (!s.connected) s.disconnect().connect()
    })
  },
  /** Starts live prices for an event; the returned function stops them. Counted, so two views may watch one event. */
  watch(eventId: string): () => void {
    const count = watchers.get(eventId) ?? 0
    watchers.set(eventId, count + 1)
    if (count === 0) void connect().then((s) => s.emit("odds.watch", eventId))
    return () => {
      const left = (watchers.get(eventId) ?? 1) - 1
      if (left > 0) watchers.set(eventId, left)
      else {
        watchers.delete(eventId)
        void connect().then((s) => s.emit("odds.unwatch", eventId))
      }
    }
  },
  /** Starts live prices of one market of an event (a list's row); counted like `watch`. */
  watchMarket(eventId: string, marketId: string): () => void {
    const row = rowWatchers.get(marketId)
    if (row) row.count++
    else {
      rowWatchers.set(marketId, { eventId, count: 1 })
      void connect().then((s) => s.emit("odds.watchMarket", eventId, marketId))
    }
    return () => {
      const watching = rowWatchers.get(marketId)
      if (!watching) return
      if (--watching.count > 0) return
      rowWatchers.delete(marketId)
      void connect().then((s) => s.emit("odds.unwatchMarket", marketId))
    }
  },
  book: (marketId: string): MarketBook | undefined => books.get(marketId),
  /** The price at `level` (0 = best) of one side of a runner. */
  level: (marketId: string, selectionId: string, side: "back" | "lay", level = 0): PriceLevel | undefined =>
    books.get(marketId)?.runners.find((r) => r.selectionId === selectionId)?.[side][level],
  subscribeMarket(marketId: string, listener: Listener): () => void {
    let set = marketListeners.get(marketId)
    if (!set) marketListeners.set(marketId, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  },
  score: (eventId: string): Score | undefined => scores.get(eventId),
  subscribeScore(eventId: string, listener: Listener): () => void {
    let set = scoreListeners.get(eventId)
    if (!set) scoreListeners.set(eventId, (set = new Set()))
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  },
  /** Hears that events started, finished or were added, or (with `eventId`) that one event's markets changed. */
  onCatalogue(listener: (change: CatalogueChanged) => void): () => void {
    catalogueListeners.add(listener)
    void connect()
    return () => {
      catalogueListeners.delete(listener)
    }
  }
}
