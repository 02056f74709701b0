import { createAdapter } from "@socket.io/postgres-adapter"
import { Context, Effect, Layer, type Scope } from "effect"
import type { IncomingMessage, Server as HttpServer } from "node:http"
import type { Duplex } from "node:stream"
import pg from "pg"
import { Server as SocketServer, type Socket } from "socket.io"
import { ServerConfig } from "../config.ts"
import type { DeskChanged } from "../../src/schema/realtime.ts"

/** Turns a socket's bearer token into its player (or staff member on the desk) and session, or undefined for a visitor. */
export class SocketAuthenticator extends Context.Service<SocketAuthenticator, {
  readonly authenticate: (token: string) => Promise<{ readonly userId: string; readonly sessionId: string; readonly desk?: boolean } | undefined>
}>()("khel/SocketAuthenticator") {
  /** Until identity exists every socket is a visitor. */
  static readonly visitors = Layer.succeed(SocketAuthenticator, { authenticate: async () => undefined })
}

const userRoom = (userId: string) => `user:${userId}`
/** Every socket signed in with one session: ended together when the session is. */
const sessionRoom = (sessionId: string) => `session:${sessionId}`
/** The desk's sockets: staff signed in at /admin hear what changed in the queues, approvals and markets. */
const DESK_ROOM = "desk"
/** The event the desk's sockets hear (src/schema/realtime.ts `DeskChanged`). */
export const DESK_EVENT = "desk"
export type DeskTopic = DeskChanged["topic"]

/** How long the changes of markets' books (bets placed, matched, settled) gather before the desks hear of them: one notification per market. */
const BOOK_CHANGES_EVERY_MS = 1000

/** A user's event: the user (its room and the event's name), what changed and what to tell them (src/schema/realtime.ts). */
type UserEvent = readonly [userId: string, payload: { readonly reason: string; readonly at: number; readonly message?: string }]
/** The servers' message carrying user events to each other, and how long an event waits for others to join it. */
const USER_EVENTS = "khel:user-events"
const USER_EVENTS_EVERY_MS = 10

/** The cookie that sends a socket.io client back to the server it connected to (docs/deploy.md). */
export const SERVER_COOKIE = "khel_server"

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Closes the adapter's pool once its last messages are sent (the admin CLI
 * exits right after its emits). `end` waits for the connections in use, but a
 * query still waiting for a connection would never run once it is called, so
 * those are let through first. Its connections are tracked, so one the
 * adapter took while it was closing cannot keep the process alive.
 */
const closePool = async (pool: pg.Pool, connections: Set<pg.ClientBase>) => {
  const deadline = Date.now() + 2000
  while (pool.waitingCount > 0 && Date.now() < deadline) await pause(5)
  await Promise.race([pool.end(), pause(Math.max(0, deadline - Date.now()))])
  for (const connection of connections) (connection as pg.Client).end().catch(() => undefined)
}

/**
 * socket.io on the API's own port. Each authenticated socket joins its
 * user's room; `notifyUser` emits the event named by the user id there, so
 * only that user's sockets hear about their balance, wallet or exposure.
 *
 * On PostgreSQL, socket.io runs with its PostgreSQL adapter: a room emit on
 * one server (or in the admin CLI) reaches that room's sockets on every
 * server, and servers send each other messages (`serverSideEmit`) the same
 * way. The embedded database belongs to one process, which keeps socket.io's
 * own in-memory adapter.
 */
export class Realtime extends Context.Service<Realtime, {
  readonly io: SocketServer
  /** Tells the user's sockets that something about their account changed, and what to say about it (a toast), if anything. */
  notifyUser(userId: string, reason: string, message?: string): Effect.Effect<void>
  /** Tells every desk (on every server) that a record of `topic` changed: a new request, a claim, a decision. */
  notifyDesk(topic: DeskTopic, id: string): Effect.Effect<void>
  /**
   * The market's book changed (a bet placed, matched or settled): every desk hears of it (`markets`) within about a
   * second, once however many bets changed it meanwhile. Costs the bet a set insertion.
   */
  bookChanged(marketId: string): Effect.Effect<void>
  /**
   * Disconnects the sockets of sessions that ended (logout, password change) on every server: with the
   * PostgreSQL adapter a room's disconnect reaches the other servers' sockets too.
   */
  endSessions(sessionIds: ReadonlyArray<string>): Effect.Effect<void>
  /** A message to every other server (and nothing when this process is the only one). */
  tellServers(event: string, ...args: ReadonlyArray<unknown>): Effect.Effect<void>
  /**
   * Puts socket.io on the HTTP server, after the API's own listeners are in place. When the scope closes
   * (the server stops) its clients are let go first, so they reconnect elsewhere and the HTTP server has only
   * its requests left to finish.
   */
  attach(server: HttpServer): Effect.Effect<void, never, Scope.Scope>
}>()("khel/Realtime") {
  static readonly layer = Layer.effect(
    Realtime,
    Effect.gen(function*() {
      const auth = yield* SocketAuthenticator
      const config = yield* ServerConfig
      const services = yield* Effect.context<never>()
      const warn = (message: string) => (error: unknown) => Effect.runForkWith(services)(Effect.logWarning(message, error))
      const io = new SocketServer({ serveClient: false, destroyUpgrade: false, transports: ["websocket", "polling"] })

      if (config.databaseUrl) {
        const connections = new Set<pg.ClientBase>()
        const pool = yield* Effect.acquireRelease(
          Effect.sync(() => {
            const pool = new pg.Pool({
              connectionString: config.databaseUrl,
              max: 4,
              application_name: `khel-socket.io ${config.serverId}`,
              onConnect: (connection) => {
                connections.add(connection)
                connection.on("end", () => connections.delete(connection))
              }
            })
            pool.on("error", warn("socket.io adapter: a database connection failed"))
            return pool
          }),
          (pool) => Effect.promise(() => closePool(pool, connections).catch(() => undefined))
        )
        io.adapter(createAdapter(pool, { errorHandler: warn("socket.io adapter: a message was not sent or read") }))
      }

      io.use((socket: Socket, next) => {
        const token = typeof socket.handshake.auth?.token === "string" ? socket.handshake.auth.token : ""
        if (!token) return next()
        auth.authenticate(token).then(
          (signedIn) => {
            socket.data.userId = signedIn?.userId
            socket.data.sessionId = signedIn?.sessionId
            socket.data.desk = signedIn?.desk === true
            next()
          },
          () => next()
        )
      })
      io.on("connection", (socket) => {
        if (typeof socket.data.userId !== "string") return
        // A staff member's desk socket hears the desk, not a player's events.
        void socket.join(socket.data.desk ? [DESK_ROOM, sessionRoom(socket.data.sessionId)] : [userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)])
      })

      yield* Effect.addFinalizer(() => Effect.promise(() => io.close().catch(() => undefined)))

      /**
       * A user's event reaches their sockets on this server at once. On PostgreSQL the other servers hear of it
       * too, but not one message each: the adapter sends every room emit as its own NOTIFY (a statement and a
       * commit on the database, and a message every server decodes), so under betting load the events of a few
       * milliseconds travel together, as one message that each server emits to the rooms it holds.
       */
      let pending: Array<UserEvent> = []
      const sendPending = () => {
        if (pending.length === 0) return
        const batch = pending
        pending = []
        io.serverSideEmit(USER_EVENTS, batch)
      }
      const emitHere = ([userId, payload]: UserEvent) => io.local.to(userRoom(userId)).emit(userId, payload)
      if (config.databaseUrl) {
        io.on(USER_EVENTS, (batch: ReadonlyArray<UserEvent>) => {
          for (const event of batch) emitHere(event)
        })
        // Whatever is pending goes out before socket.io and the adapter close (the admin CLI exits right after).
        yield* Effect.addFinalizer(() => Effect.sync(sendPending))
      }

      const notifyUser = (userId: string, reason: string, message?: string): Effect.Effect<void> =>
        Effect.sync(() => {
          const event: UserEvent = [userId, message === undefined ? { reason, at: Date.now() } : { reason, at: Date.now(), message }]
          emitHere(event)
          if (!config.databaseUrl) return
          if (pending.length === 0) setTimeout(sendPending, USER_EVENTS_EVERY_MS)
          pending.push(event)
        })

      // Rare (staff actions, new requests): straight through the adapter to every server's desks.
      const notifyDesk = (topic: DeskTopic, id: string): Effect.Effect<void> =>
        Effect.sync(() => void io.to(DESK_ROOM).emit(DESK_EVENT, { topic, id, at: Date.now() }))

      const bookChanges = new Set<string>()
      const sendBookChanges = () => {
        for (const marketId of bookChanges) io.to(DESK_ROOM).emit(DESK_EVENT, { topic: "markets", id: marketId, at: Date.now() })
        bookChanges.clear()
      }
      const bookChanged = (marketId: string): Effect.Effect<void> =>
        Effect.sync(() => {
          if (bookChanges.size === 0) setTimeout(sendBookChanges, BOOK_CHANGES_EVERY_MS).unref()
          bookChanges.add(marketId)
        })

      const endSessions = (sessionIds: ReadonlyArray<string>): Effect.Effect<void> =>
        sessionIds.length === 0 ? Effect.void : Effect.sync(() => io.in(sessionIds.map(sessionRoom)).disconnectSockets(true))

      const attach = (server: HttpServer) =>
        Effect.acquireRelease(Effect.sync(() => {
          // Effect's server answers every `upgrade`; socket.io must own its own path.
          const effectUpgrades = server.listeners("upgrade") as Array<(req: IncomingMessage, socket: Duplex, head: Buffer) => void>
          server.removeAllListeners("upgrade")
          io.attach(server)
          if (config.namedServer) {
            // The load balancer sends this client's later requests back here (long-polling needs one server).
            io.engine.on("initial_headers", (headers: Record<string, string>) => {
              headers["set-cookie"] = `${SERVER_COOKIE}=${config.serverId}; Path=/socket.io/; HttpOnly; SameSite=Lax`
            })
          }
          server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
            if (req.url?.startsWith("/socket.io/")) return
            for (const listener of effectUpgrades) listener.call(server, req, socket, head)
          })
        }), () =>
          // Closing the transports (not disconnecting the sockets, which clients take as final) makes them reconnect.
          Effect.sync(() => io.engine.close()))

      const tellServers = (event: string, ...args: ReadonlyArray<unknown>) =>
        Effect.sync(() => {
          if (config.databaseUrl) io.serverSideEmit(event, ...args)
        })

      return Realtime.of({ io, notifyUser, notifyDesk, bookChanged, endSessions, tellServers, attach })
    })
  )
}
