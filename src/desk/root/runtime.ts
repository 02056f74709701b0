import { Effect, ManagedRuntime } from "effect"
import { fromPromise } from "xstate"
import type { Written } from "../../machines/writes.ts"
import type { Failure } from "../../schema/errors.ts"
import { failureTone, rejectCall } from "../../schema/failures.ts"
import { createNoticeStore } from "../../services/noticeStore.ts"
import { DeskApi, type DeskFailure } from "../services/api.ts"

/** The desk's toasts: a little longer than the player site's, staff read them while working. */
export const deskNotices = createNoticeStore(5000)

export const DeskLive = DeskApi.layer

/** The one runtime every desk actor runs its Effect programs on. */
export const runtime = ManagedRuntime.make(DeskLive)
export type DeskServices = ManagedRuntime.ManagedRuntime.Services<typeof runtime>

/** A desk call's failure as plain data (what machines guard on). */
export const plain = (failure: DeskFailure): Failure => ({ code: failure.code, message: failure.message, reason: failure.reason })

/** The `data` of an envelope, a failure as plain data (what machines guard on). */
export const data = <A, R>(call: Effect.Effect<{ readonly data: A }, DeskFailure, R>) => Effect.mapError(Effect.map(call, (envelope) => envelope.data), plain)

/** The envelope of a write, as the desk reads it. */
export type Answer = { readonly data: unknown; readonly meta: { readonly message: string } }

/** A write's `data` with the server's message for the staff member (`Written`), a failure as plain data. */
export const written = <A, R>(call: Effect.Effect<{ readonly data: A; readonly meta: { readonly message: string } }, DeskFailure, R>) =>
  Effect.mapError(Effect.map(call, (envelope): Written<A> => ({ data: envelope.data, message: envelope.meta.message })), plain)

/**
 * The toasts every desk flow shows on its calls' outcomes: a write's message,
 * and why a call failed (a refusal warns; unreachable or broken is an error).
 */
export const deskToasts = {
  toastSuccess: (_: unknown, params: { readonly message: string }) => {
    if (params.message) deskNotices.show("success", params.message)
  },
  toastFailure: (_: unknown, params: { readonly error: Failure }) => {
    const tone = failureTone(params.error)
    if (tone) deskNotices.show(tone, params.error.message)
  }
}

/**
 * A machine's promise actor running `program` on the desk's runtime: leaving
 * the state aborts it (an aborted call never answers), a failure reaches the
 * machine as plain data.
 */
export const task = <A, I = void>(program: (input: I) => Effect.Effect<A, Failure, DeskServices>) =>
  fromPromise<A, I>(({ input, signal }) =>
    runtime.runPromise(program(input), { signal }).catch(rejectCall(signal))
  )

/** A call of the desk's API (the service, from the runtime). */
export const call = DeskApi.use
