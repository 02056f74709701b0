import { Effect } from "effect"
import type { Server, ServerResponse } from "node:http"

/**
 * Lets a stopping server finish quickly behind a proxy. A proxy keeps its
 * connections to the server open and sends request after request on them
 * (nginx's `keepalive`); Node's `server.close()` closes only the connections
 * idle at that moment and waits for the others to end, so under steady
 * traffic it never would: Effect's server would wait out its 20 s grace and
 * then interrupt the requests in flight. From the moment the scope closes
 * (before the HTTP server's own finalizer), every answer not yet written says
 * `Connection: close`, so each connection ends with the answer the server
 * owes on it and the proxy takes its next requests elsewhere. A connection
 * that was answered just before waits for its next request (answered the
 * same way) or the keep-alive timeout (5 s), never for a close of ours that
 * could cross a request on the wire.
 */
export const drainOnStop = (server: Server) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const inFlight = new Set<ServerResponse>()
      let draining = false
      server.prependListener("request", (_request, response: ServerResponse) => {
        if (draining) return response.setHeader("connection", "close")
        inFlight.add(response)
        response.once("close", () => inFlight.delete(response))
      })
      return () => {
        draining = true
        for (const response of inFlight) if (!response.headersSent) response.setHeader("connection", "close")
      }
    }),
    (drain) => Effect.sync(drain)
  )
