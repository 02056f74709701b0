import { Context, Effect, Layer } from "effect"
import * as socket from "./socket.ts"

type Listener = (payload: unknown) => void

/** The site's socket (socket.ts) as a service. */
export class Realtime extends Context.Service<Realtime, {
  /** Calls `listener` on every event named `event`; the returned function unsubscribes. */
  on(event: string, listener: Listener): Effect.Effect<() => void>
  /** Reconnects with a new bearer token (after login or logout). */
  authenticate(token: string | undefined): Effect.Effect<void>
}>()("khel/Realtime") {
  static readonly layer = Layer.succeed(Realtime, Realtime.of({
    on: (event, listener) => Effect.sync(() => socket.on(event, listener)),
    authenticate: (token) => Effect.sync(() => socket.authenticate(token))
  }))
}
