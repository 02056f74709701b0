import type { ErrorTag, Failure } from "../schema/errors.ts"
import { readTag } from "../schema/failures.ts"
import type { Meta } from "../schema/envelope.ts"
import { isAnswer } from "../schema/guards.ts"

/**
 * How the client reads an answer's status and envelope (SPEC section 8), in
 * one place for the `Api` service and the first page's calls
 * (src/root/startup.ts). Plain code: the first page reads answers before the
 * Effect runtime loads. The data is the caller's to decode.
 */

export const UNREACHABLE = "We could not reach the server. Check your connection and try again."
export const NOT_UNDERSTOOD = "The server sent an answer this page does not understand. Please reload."

export type Reading =
  /** Any 401: the session is gone (sessionEnd.ts). */
  | { readonly _tag: "SessionEnded"; readonly code: number }
  /** HTTP 200 with meta code 200 (or no envelope to say otherwise): decode the data. */
  | { readonly _tag: "Success"; readonly meta: Meta | undefined }
  /** A failure the server explains (a non-200 meta code): the player reads its message (a warning). */
  | { readonly _tag: "Refused"; readonly failure: Failure }
  /** An HTTP error: the server's message when it sent one (an error). */
  | { readonly _tag: "Broken"; readonly failure: Failure }

/** Reads an answer; `declared` are the reasons its endpoint declares (src/schema/errors.ts): a machine gets no other specific one. */
export const readAnswer = (status: number, body: unknown, declared: ReadonlyArray<ErrorTag> | undefined): Reading => {
  const meta = isAnswer(body) ? body.meta : undefined
  if (status === 401 || meta?.code === 401) return { _tag: "SessionEnded", code: meta?.code ?? 401 }
  if (status === 200 && (meta === undefined || meta.code === 200)) return { _tag: "Success", meta }
  if (meta !== undefined && status < 500) {
    return { _tag: "Refused", failure: { code: meta.code, message: meta.message, reason: readTag(meta.code, meta.error, declared) } }
  }
  const message = meta !== undefined ? meta.message : `The server answered ${status}. Please try again in a moment.`
  const code = meta?.code ?? status
  return { _tag: "Broken", failure: { code, message, reason: readTag(code, meta?.error, declared) } }
}
