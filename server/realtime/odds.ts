import { Effect, Layer } from "effect"
import type { Socket } from "socket.io"
import type { MarketBook, Score } from "../../src/schema/betting.ts"
import type { CatalogueChanged } from "../../src/schema/realtime.ts"
import { oddsBatches, oddsBatchLag } from "../observability/metrics.ts"
import { OddsFeed, type OddsUpdate } from "../odds/OddsFeed.ts"
import { Realtime } from "./Realtime.ts"

/** socket.io room of the clients watching an event's prices. */
export const eventRoom = (eventId: string) => `event:${eventId}`
/** socket.io room of the clients watching one market of an event (an event's row in a list). */
export const marketRoom = (marketId: string) => `market:${marketId}`

/** At least this long between two batches to a client (10 a second at most); changes in between are merged. */
export const MIN_BATCH_INTERVAL_MS = 100
/**
 * The same for a client that only watches lists' rows: a row's best prices once a second are live enough, and a
 * phone showing a list of events is spared ten renders a second.
 */
export const LIST_BATCH_INTERVAL_MS = 1000
/** A client that has not acknowledged a batch for this long is sent the next one anyway. */
const ACK_TIMEOUT_MS = 5000
/** How many events one socket may watch at once. */
const MAX_WATCHED = 20

interface Pending {
  /** MIN_BATCH_INTERVAL_MS while the client watches a whole event, LIST_BATCH_INTERVAL_MS while only rows. */
  interval: number
  readonly markets: Map<string, MarketBook>
  readonly scores: Map<string, Score>
  inFlight: boolean
  timer: ReturnType<typeof setTimeout> | undefined
  lastSent: number
  /** When the leader wrote the oldest price waiting (the batch's lag starts there). */
  oldest: number | undefined
}

/**
 * The odds channel. A client sends `odds.watch` with an event id and joins
 * that event's room; it gets the event's books and score at once
 * (`odds.snapshot`), then `odds` batches of what changed. A list's row sends
 * `odds.watchMarket` with the event and its one market instead, and gets
 * that market alone, at most once a second. Batches are
 * conflated per client: while one is unacknowledged, newer prices replace
 * older ones in the next batch, so a slow client gets the latest price and
 * never a backlog.
 */
export const OddsChannelLive = Layer.effectDiscard(Effect.gen(function*() {
  const { io } = yield* Realtime
  const feed = yield* OddsFeed
  const pending = new Map<string, Pending>()
  // Batches leave from socket.io's callbacks, outside any fiber: they are counted through this context's registry.
  const context = yield* Effect.context<never>()

  const flush = (socket: Socket, state: Pending) => {
    state.timer = undefined
    if (state.inFlight || (state.markets.size === 0 && state.scores.size === 0) || socket.disconnected) return
    const wait = state.lastSent + state.interval - Date.now()
    if (wait > 0) {
      state.timer = setTimeout(() => flush(socket, state), wait)
      return
    }
    const batch = { markets: [...state.markets.values()], scores: [...state.scores.values()] }
    state.markets.clear()
    state.scores.clear()
    state.inFlight = true
    state.lastSent = Date.now()
    oddsBatches.updateUnsafe(1, context)
    if (state.oldest !== undefined) oddsBatchLag.updateUnsafe(Math.max(0, state.lastSent - state.oldest) / 1000, context)
    state.oldest = undefined
    socket.timeout(ACK_TIMEOUT_MS).emit("odds", batch, () => {
      state.inFlight = false
      if (state.markets.size > 0 || state.scores.size > 0) schedule(socket, state)
    })
  }

  const schedule = (socket: Socket, state: Pending) => {
    if (state.timer === undefined && !state.inFlight) state.timer = setTimeout(() => flush(socket, state), 0)
  }

  io.on("connection", (socket) => {
    const state: Pending = { interval: LIST_BATCH_INTERVAL_MS, markets: new Map(), scores: new Map(), inFlight: false, timer: undefined, lastSent: 0, oldest: undefined }
    const watched = new Set<string>()
    /** Rows watched: market id → its event. */
    const rows = new Map<string, string>()
    const isId = (id: unknown): id is string => typeof id === "string" && id.length > 0 && id.length <= 64
    const paced = () => {
      state.interval = watched.size > 0 ? MIN_BATCH_INTERVAL_MS : LIST_BATCH_INTERVAL_MS
    }
    pending.set(socket.id, state)

    socket.on("odds.watch", (eventId: unknown) => {
      if (!isId(eventId) || watched.has(eventId) || watched.size + rows.size >= MAX_WATCHED) return
      watched.add(eventId)
      paced()
      feed.watch(eventId, 1)
      void socket.join(eventRoom(eventId))
      socket.emit("odds.snapshot", feed.eventOdds(eventId))
    })
    socket.on("odds.unwatch", (eventId: unknown) => {
      if (typeof eventId !== "string" || !watched.delete(eventId)) return
      paced()
      feed.watch(eventId, -1)
      void socket.leave(eventRoom(eventId))
    })
    socket.on("odds.watchMarket", (eventId: unknown, marketId: unknown) => {
      if (!isId(eventId) || !isId(marketId) || rows.has(marketId) || watched.size + rows.size >= MAX_WATCHED) return
      rows.set(marketId, eventId)
      feed.watch(eventId, 1)
      void socket.join(marketRoom(marketId))
      const odds = feed.eventOdds(eventId)
      socket.emit("odds.snapshot", { eventId, markets: odds.markets.filter((m) => m.marketId === marketId) })
    })
    socket.on("odds.unwatchMarket", (marketId: unknown) => {
      const eventId = typeof marketId === "string" ? rows.get(marketId) : undefined
      if (typeof marketId !== "string" || eventId === undefined) return
      rows.delete(marketId)
      feed.watch(eventId, -1)
      void socket.leave(marketRoom(marketId))
    })
    socket.on("disconnect", () => {
      for (const eventId of [...watched, ...rows.values()]) feed.watch(eventId, -1)
      watched.clear()
      rows.clear()
      if (state.timer) clearTimeout(state.timer)
      pending.delete(socket.id)
    })
  })

  /** Queues an update for one client's next batch (with the event's score when it watches the whole event). */
  const queue = (socketId: string, update: OddsUpdate, writtenAt: number, score: boolean) => {
    const state = pending.get(socketId)
    const socket = io.sockets.sockets.get(socketId)
    if (!state || !socket) return
    if (update.market) {
      state.markets.set(update.market.marketId, update.market)
      state.oldest = Math.min(state.oldest ?? writtenAt, writtenAt)
    }
    if (score && update.score) state.scores.set(update.score.eventId, update.score)
    schedule(socket, state)
  }

  const unsubscribe = feed.subscribe((update) => {
    const rooms = io.sockets.adapter.rooms
    const writtenAt = update.writtenAt ?? Date.now()
    const event = rooms.get(eventRoom(update.eventId))
    for (const socketId of event ?? []) queue(socketId, update, writtenAt, true)
    if (!update.market) return
    // A row's market, to the clients not already sent it with its whole event.
    for (const socketId of rooms.get(marketRoom(update.market.marketId)) ?? []) if (!event?.has(socketId)) queue(socketId, update, writtenAt, false)
  })
  // Events started, finished or added: every client reloads its sports list. A line opened on one event names it:
  // only that event's page reloads.
  const offCatalogue = feed.onCatalogueChange((eventId) => {
    const change: CatalogueChanged = eventId === undefined ? { at: Date.now() } : { at: Date.now(), eventId }
    io.emit("catalogue", change)
  })

  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      unsubscribe()
      offCatalogue()
      for (const state of pending.values()) if (state.timer) clearTimeout(state.timer)
    })
  )
}))
