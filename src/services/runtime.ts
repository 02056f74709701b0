import { type Effect, Layer, ManagedRuntime } from "effect"
import { Api } from "./api.ts"
import { Navigation } from "./navigation.ts"
import { navigator } from "./navigator.ts"
import { noticeStore } from "./noticeStore.ts"
import { Notices } from "./notices.ts"
import { Realtime } from "./realtime.ts"
import { Storage } from "./storage.ts"

/** Shared with React and the first page (plain modules): the toast list and the router binding. */
export { navigator, noticeStore }

const BaseLive = Layer.mergeAll(Storage.layer, Notices.make(noticeStore), Navigation.make(navigator))

export const ClientLive = Layer.mergeAll(Api.layer, Realtime.layer).pipe(Layer.provideMerge(BaseLive))

/** The one runtime every machine's actors run their Effect programs on. */
export const runtime = ManagedRuntime.make(ClientLive)
export type ClientServices = ManagedRuntime.ManagedRuntime.Services<typeof runtime>

/** Runs a program for a machine's actor; the actor's signal aborts it when the machine leaves the state. */
export const run = <A, E>(program: Effect.Effect<A, E, ClientServices>, signal?: AbortSignal) =>
  runtime.runPromise(program, signal ? { signal } : undefined)
