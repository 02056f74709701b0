import type { Socket } from "socket.io-client"

type Listener = (payload: unknown) => void

/**
 * socket.io to our own origin, plain (no Effect) so the session follows the
 * player's events without the Effect runtime; the `Realtime` service
 * (realtime.ts) uses this same socket. The client library loads on first use,
 * so visitors who never subscribe do not pay for it on the home page.
 */
let token: string | undefined
let socket: Promise<Socket> | undefined

const connect = () => {
  socket ??= import("socket.io-client").then(({ io }) =>
    io({ path: "/socket.io/", transports: ["websocket", "polling"], auth: (cb) => cb({ token: token ?? "" }) })
  )
  return socket
}

/** Calls `listener` on every event named `event`; the returned function unsubscribes. */
export const on = (event: string, listener: Listener): (() => void) => {
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
}

/** Reconnects with a new bearer token (after login or logout). */
export const authenticate = (next: string | undefined) => {
  if (next === token) return
  token = next
  // The server reads the token at the handshake: reconnect to present the new one.
  if (socket) void socket.then((s) => s.disconnect().connect())
}

/** Tries again now if the socket lost its connection (the network is back), instead of at its next back-off. */
export const reconnect = () => {
  if (socket) void socket.then((s) => {
    if (!s.connected) s.disconnect().connect()
  })
}
