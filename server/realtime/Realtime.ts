import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Queue, Schedule } from "effect"
import type { IncomingMessage, Server as HttpServer } from "node:http"
import type { Duplex } from "node:stream"
import { Server as SocketServer, type Socket } from "socket.io"
import { Database } from "../db/database.ts"

/** Turns a socket's bearer token into a user id, or undefined for a visitor. */
export class SocketAuthenticator extends Context.Service<SocketAuthenticator, {
  readonly authenticate: (token: string) => Promise<string | undefined>
}>()("khel/SocketAuthenticator") {
  /** Until identity exists every socket is a visitor. */
  static readonly visitors = Layer.succeed(SocketAuthenticator, { authenticate: async () => undefined })
}

const userRoom = (userId: string) => `user:${userId}`

/** PostgreSQL channel that carries user events between processes. */
const USER_CHANNEL = "khel_user_events"

/** At most this many user events per NOTIFY statement. */
const NOTIFY_BATCH = 500

/**
 * socket.io on the API's own port. Each authenticated socket joins its
 * user's room; `notifyUser` emits the event named by the user id there, so
 * only that user's sockets hear about their balance, wallet or exposure.
 *
 * On PostgreSQL the event goes through NOTIFY and every server (and the
 * admin CLI) LISTENs, so a change made in one process reaches the player's
 * socket wherever it is connected. The embedded database belongs to one
 * process, which emits directly. Events are sent after the change commits,
 * in batches (one statement for every event waiting), off the request's path.
 */
export class Realtime extends Context.Service<Realtime, {
  readonly io: SocketServer
  notifyUser(userId: string, reason: string): Effect.Effect<void>
  /** Puts socket.io on the HTTP server, after the API's own listeners are in place. */
  attach(server: HttpServer): Effect.Effect<void>
}>()("khel/Realtime") {
  static readonly layer = Layer.effect(
    Realtime,
    Effect.gen(function*() {
      const auth = yield* SocketAuthenticator
      const { engine } = yield* Database
      const pg = yield* PgClient.PgClient
      const io = new SocketServer({ serveClient: false, destroyUpgrade: false, transports: ["websocket", "polling"] })

      io.use((socket: Socket, next) => {
        const token = typeof socket.handshake.auth?.token === "string" ? socket.handshake.auth.token : ""
        if (!token) return next()
        auth.authenticate(token).then(
          (userId) => {
            socket.data.userId = userId
            next()
          },
          () => next()
        )
      })
      io.on("connection", (socket) => {
        if (typeof socket.data.userId === "string") void socket.join(userRoom(socket.data.userId))
      })

      yield* Effect.addFinalizer(() => Effect.promise(() => io.close().catch(() => undefined)))

      const emitLocally = (userId: string, reason: string, at: number) => io.to(userRoom(userId)).emit(userId, { reason, at })

      let notifyUser = (userId: string, reason: string): Effect.Effect<void> =>
        Effect.sync(() => {
          emitLocally(userId, reason, Date.now())
        })
      if (engine === "postgres") {
        // Hear every process's events; a dropped connection is re-established (events in the gap are lost,
        // which only delays a balance refresh until the player's next load).
        const relay = Effect.scoped(Effect.gen(function*() {
          const events = yield* pg.listen(USER_CHANNEL)
          return yield* Effect.forever(Effect.flatMap(Queue.take(events), (notification) =>
            Effect.sync(() => {
              const { userId, reason, at } = JSON.parse(notification.payload) as { userId: string; reason: string; at: number }
              emitLocally(userId, reason, at)
            })
          ))
        }))
        yield* relay.pipe(
          Effect.tapCause((cause) => Effect.logWarning("user event relay stopped; listening again", cause)),
          Effect.retry(Schedule.spaced("1 second")),
          Effect.forkScoped
        )
        // Events leave in batches, one statement for all those waiting, from a fiber of their own: a bet's answer
        // never waits for its notification, and a busy server sends one NOTIFY statement per batch, not per event.
        const outbox = yield* Queue.unbounded<string>()
        // Uninterruptible: a batch being sent when the process stops still goes out.
        const send = (payloads: ReadonlyArray<string>) =>
          pg.unsafe(`SELECT pg_notify($1, payload) FROM json_array_elements_text($2::json) AS events (payload)`, [USER_CHANNEL, JSON.stringify(payloads)]).pipe(
            Effect.catch((error) => Effect.logWarning("user events not sent", error)),
            Effect.uninterruptible
          )
        yield* Queue.takeBetween(outbox, 1, NOTIFY_BATCH).pipe(Effect.flatMap(send), Effect.forever, Effect.forkScoped)
        // What still waits when the process stops (the admin CLI exits right after its command) goes out first.
        yield* Effect.addFinalizer(() => Effect.flatMap(Queue.clear(outbox), (rest) => (rest.length > 0 ? send(rest) : Effect.void)))
        notifyUser = (userId, reason) => Effect.asVoid(Queue.offer(outbox, JSON.stringify({ userId, reason, at: Date.now() })))
      }

      const attach = (server: HttpServer) =>
        Effect.sync(() => {
          // Effect's server answers every `upgrade`; socket.io must own its own path.
          const effectUpgrades = server.listeners("upgrade") as Array<(req: IncomingMessage, socket: Duplex, head: Buffer) => void>
          server.removeAllListeners("upgrade")
          io.attach(server)
          server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
            if (req.url?.startsWith("/socket.io/")) return
            for (const listener of effectUpgrades) listener.call(server, req, socket, head)
          })
        })

      return Realtime.of({ io, notifyUser, attach })
    })
  )
}
