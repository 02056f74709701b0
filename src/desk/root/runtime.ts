import { Effect, Layer, ManagedRuntime } from "effect"
import { fromPromise } from "xstate"
import type { Failure } from "../../schema/errors.ts"
import { createNoticeStore } from "../../services/noticeStore.ts"
import { DeskApi, type DeskFailure, DeskNotices } from "../services/api.ts"

/** The desk's toasts: a little longer than the player site's, staff read them while working. */
export const deskNotices = createNoticeStore(5000)

export const DeskLive = DeskApi.layer.pipe(Layer.provide(Layer.succeed(DeskNotices, deskNotices)))

/** The one runtime every desk actor runs its Effect programs on. */
export const runtime = ManagedRuntime.make(DeskLive)
export type DeskServices = ManagedRuntime.ManagedRuntime.Services<typeof runtime>

/** A desk call's failure as plain data (what machines guard on). */
export const plain = (failure: DeskFailure): Failure => ({ code: failure.code, message: failure.message, reason: failure.reason })

/** The `data` of an envelope, a failure as plain data (what machines guard on). */
export const data = <A, R>(call: Effect.Effect<{ readonly data: A }, DeskFailure, R>) => Effect.mapError(Effect.map(call, (envelope) => envelope.data), plain)

/**
 * A machine's promise actor running `program` on the desk's runtime: leaving
 * the state aborts it (an aborted call never answers), a failure reaches the
 * machine as plain data.
 */
export const task = <A, I = void>(program: (input: I) => Effect.Effect<A, Failure, DeskServices>) =>
  fromPromise<A, I>(({ input, signal }) =>
    runtime.runPromise(program(input), { signal }).catch((error: unknown) => (signal.aborted ? new Promise<never>(() => {}) : Promise.reject(error)))
  )

/** A call of the desk's API (the service, from the runtime). */
export const call = DeskApi.use
