import { Effect } from "effect"
import { fromPromise } from "xstate"
import type { Written } from "../machines/writes.ts"
import type { Failure } from "../schema/errors.ts"
import { failureTone, rejectCall } from "../schema/failures.ts"
import type { ApiFailure } from "../services/api.ts"
import { Notices } from "../services/notices.ts"
import { type ClientServices, run } from "../services/runtime.ts"

/**
 * How the composition root hands Effect programs to pure machines: a
 * program becomes a promise actor whose signal aborts it when the machine
 * leaves the state, and a failed call reaches the machine as plain `Failure`
 * data (code, message, reason), which it guards on.
 */

const plain = (failure: ApiFailure): Failure => ({ code: failure.code, message: failure.message, reason: failure.reason })

/** A call whose failure reaches the machine as plain data. */
export const failures = <A, R>(call: Effect.Effect<A, ApiFailure, R>) => Effect.mapError(call, plain)

/** The `data` of an envelope, with a failure as plain data. */
export const data = <A, R>(call: Effect.Effect<{ readonly data: A }, ApiFailure, R>) => failures(Effect.map(call, (envelope) => envelope.data))

/** A write's `data` with the server's message for the player (`Written`, src/machines/writes.ts), with a failure as plain data. */
export const written = <A, R>(call: Effect.Effect<{ readonly data: A; readonly meta: { readonly message: string } }, ApiFailure, R>) =>
  failures(Effect.map(call, (envelope): Written<A> => ({ data: envelope.data, message: envelope.meta.message })))

/**
 * A machine's promise actor running `program` on the client runtime; it
 * fails as `rejectCall` says (a call its actor's stop interrupted never
 * answers).
 */
export const task = <A, I = void>(program: (input: I) => Effect.Effect<A, Failure, ClientServices>) =>
  fromPromise<A, I>(({ input, signal }) => runTask(program(input), signal))

/** `task`'s run of a program, for a promise actor that loads its program first (src/root/session.ts). */
export const runTask = <A>(program: Effect.Effect<A, Failure, ClientServices>, signal: AbortSignal) =>
  run(program, signal).catch(rejectCall(signal))

/** Runs a side effect of an action (storage, toasts); it cannot fail. */
export const effect = (program: Effect.Effect<void, never, ClientServices>) => void run(program)

/** A machine's toast action: `{ message, subMessage? }` as a warning, success or error toast. */
export const toast = (type: "success" | "warning" | "error") => (_: unknown, params: { readonly message: string; readonly subMessage?: string | undefined }) =>
  effect(Notices.use((notices) => notices[type](params.message, params.subMessage)))

/** A machine's success toast of a write: the server's message (`Written`), when it sent one. */
export const toastSuccess = (_: unknown, params: { readonly message: string }) => {
  if (params.message) effect(Notices.use((notices) => notices.success(params.message)))
}

/** A machine's toast of a failed call: a warning or an error as `failureTone` says (none for an ended session). */
export const toastFailure = (_: unknown, params: { readonly error: Failure }) => {
  const tone = failureTone(params.error)
  if (tone) effect(Notices.use((notices) => notices[tone](params.error.message)))
}
