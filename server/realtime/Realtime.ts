import { Context, Effect, Layer } from "effect"
import type { IncomingMessage, Server as HttpServer } from "node:http"
import type { Duplex } from "node:stream"
import { Server as SocketServer, type Socket } from "socket.io"

/** Turns a socket's bearer token into a user id, or undefined for a visitor. */
export class SocketAuthenticator extends Context.Service<SocketAuthenticator, {
  readonly authenticate: (token: string) => Promise<string | undefined>
}>()("khel/SocketAuthenticator") {
  /** Until identity exists every socket is a visitor. */
  static readonly visitors = Layer.succeed(SocketAuthenticator, { authenticate: async () => undefined })
}

const userRoom = (userId: string) => `user:${userId}`

/**
 * socket.io on the API's own port. Each authenticated socket joins its
 * user's room; `notifyUser` emits the event named by the user id there, so
 * only that user's sockets hear about their balance, wallet or exposure.
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

      const notifyUser = (userId: string, reason: string) =>
        Effect.sync(() => {
          io.to(userRoom(userId)).emit(userId, { reason, at: Date.now() })
        })

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
