import { Context, Effect, Layer } from "effect"
import type { Socket } from "socket.io-client"

type Listener = (payload: unknown) => void

/**
 * socket.io to our own origin. The client library loads on first use, so
 * visitors who never subscribe do not pay for it on the home page.
 */
export class Realtime extends Context.Service<Realtime, {
  /** Calls `listener` on every event named `event`; the returned function unsubscribes. */
  on(event: string, listener: Listener): Effect.Effect<() => void>
  /** Reconnects with a new bearer token (after login or logout). */
  authenticate(token: string | undefined): Effect.Effect<void>
}>()("khel/Realtime") {
  static readonly layer = Layer.sync(Realtime, () => {
    let token: string | undefined
    let socket: Promise<Socket> | undefined

    const connect = () => {
      socket ??= import("socket.io-client").then(({ io }) =>
        io({ path: "/socket.io/", transports: ["websocket", "polling"], auth: (cb) => cb({ token: token ?? "" }) })
      )
      return socket
    }

    return Realtime.of({
      on: (event, listener) =>
        Effect.sync(() => {
          let stopped = false
          let off = () => {
            stopped = true
          }
          void connect().then((s) => {
            if (stopped) return
            s.on(event, listener)
            off = () => {
              s.off(event, listener)
            }
          })
          return () => off()
        }),
      authenticate: (next) =>
        Effect.sync(() => {
          if (next === token) return
          token = next
          // The server reads the token at the handshake: reconnect to present the new one.
          if (socket) void socket.then((s) => s.disconnect().connect())
        })
    })
  })
}
