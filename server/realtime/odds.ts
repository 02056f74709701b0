import { Effect, Layer } from "effect"
import type { Socket } from "socket.io"
import type { MarketBook, Score } from "../../src/schema/betting.ts"
import { oddsBatches, oddsBatchLag } from "../observability/metrics.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Realtime } from "./Realtime.ts"

/** socket.io room of the clients watching an event's prices. */
export const eventRoom = (eventId: string) => `event:${eventId}`

/** At least this long between two batches to a client (10 a second at most); changes in between are merged. */
export const MIN_BATCH_INTERVAL_MS = 100
/** A client that has not acknowledged a batch for this long is sent the next one anyway. */
const ACK_TIMEOUT_MS = 5000
/** How many events one socket may watch at once. */
const MAX_WATCHED = 20

interface Pending {
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
 * (`odds.snapshot`), then `odds` batches of what changed. Batches are
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
    const wait = state.lastSent + MIN_BATCH_INTERVAL_MS - Date.now()
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
    const state: Pending = { markets: new Map(), scores: new Map(), inFlight: false, timer: undefined, lastSent: 0, oldest: undefined }
    const watched = new Set<string>()
    pending.set(socket.id, state)

    socket.on("odds.watch", (eventId: unknown) => {
      if (typeof eventId !== "string" || eventId.length > 64 || watched.has(eventId) || watched.size >= MAX_WATCHED) return
      watched.add(eventId)
      feed.watch(eventId, 1)
      void socket.join(eventRoom(eventId))
      socket.emit("odds.snapshot", feed.eventOdds(eventId))
    })
    socket.on("odds.unwatch", (eventId: unknown) => {
      if (typeof eventId !== "string" || !watched.delete(eventId)) return
      feed.watch(eventId, -1)
      void socket.leave(eventRoom(eventId))
    })
    socket.on("disconnect", () => {
      for (const eventId of watched) feed.watch(eventId, -1)
      watched.clear()
      if (state.timer) clearTimeout(state.timer)
      pending.delete(socket.id)
    })
  })

  const unsubscribe = feed.subscribe((update) => {
    const room = io.sockets.adapter.rooms.get(eventRoom(update.eventId))
    if (!room) return
    const writtenAt = update.writtenAt ?? Date.now()
    for (const socketId of room) {
      const state = pending.get(socketId)
      const socket = io.sockets.sockets.get(socketId)
      if (!state || !socket) continue
      if (update.market) {
        state.markets.set(update.market.marketId, update.market)
        state.oldest = Math.min(state.oldest ?? writtenAt, writtenAt)
      }
      if (update.score) state.scores.set(update.score.eventId, update.score)
      schedule(socket, state)
    }
  })
  // Events started, finished or added: every client reloads its sports list.
  const offCatalogue = feed.onCatalogueChange(() => {
    io.emit("catalogue", { at: Date.now() })
  })

  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      unsubscribe()
      offCatalogue()
      for (const state of pending.values()) if (state.timer) clearTimeout(state.timer)
    })
  )
}))
