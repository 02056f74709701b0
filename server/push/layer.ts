import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { MatchReminders, Push } from "./Push.ts"

export { PushHandlers } from "./http.ts"

/** Push sending through fetch: the CLI's (its commands' notifications, nothing more). */
export const PushServiceLive = Push.layer.pipe(Layer.provide(FetchHttpClient.layer))

/** The server's: with the match reminders it looks for every 30 s. */
export const PushLive = MatchReminders.pipe(Layer.provideMerge(PushServiceLive))
