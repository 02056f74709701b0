import { Schema } from "effect"
import { DeskChanged } from "../../schema/realtime.ts"

const isDeskChanged = Schema.is(DeskChanged)

/**
 * The desk's socket: socket.io to our own origin with the desk session's
 * token; every `desk` message that decodes is handed to `heard`, anything
 * else is dropped. Returns the function that closes it.
 */
export const listenToDesk = (token: string | undefined, heard: (change: DeskChanged) => void): (() => void) => {
  let closed = false
  let close = () => {
    closed = true
  }
  void import("socket.io-client").then(({ io }) => {
    if (closed) return
    const socket = io({ path: "/socket.io/", transports: ["websocket", "polling"], auth: { token: token ?? "" } })
    socket.on("desk", (message: unknown) => {
      if (isDeskChanged(message)) heard(message)
    })
    close = () => void socket.disconnect()
  })
  return () => close()
}
