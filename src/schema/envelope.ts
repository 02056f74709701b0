import { Schema } from "effect"
import { ErrorTag, statusOf } from "./errors.ts"

/**
 * Every response of the API is `{ meta: { code, message, token? }, data }`.
 * `code` 200 is success, 401 means the session is gone, anything else is a
 * failure whose `message` is meant for the player. A failure also names its
 * reason in `error` (an `ErrorTag`, see errors.ts) for programs to act on.
 * `error` is read as any string so an older page still decodes a newer tag.
 */
export const Meta = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  token: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.String)
})
export type Meta = typeof Meta.Type

export const Envelope = <S extends Schema.Top>(data: S) =>
  Schema.Struct({ meta: Meta, data })

/** The body of every failure: same envelope, `data` is null, `meta.error` the reason, `meta.traceId` the request's trace. */
export const FailureEnvelope = Schema.Struct({
  meta: Schema.Struct({ code: Schema.Int, message: Schema.String, error: ErrorTag, traceId: Schema.optionalKey(Schema.String) }),
  data: Schema.Null
})
export type FailureEnvelope = typeof FailureEnvelope.Type

/**
 * The one error a handler raises for anything the player or operator should
 * read. The server renders it as a `FailureEnvelope` whose HTTP status equals
 * `code`; clients never see a stack trace.
 */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: Schema.Int,
  message: Schema.String,
  tag: ErrorTag
}, { httpApiStatus: 400 }) {}

/**
 * How the server fails, from the domain to the HTTP edge: it names the reason
 * (an `ErrorTag`) and the message for the reader; the status it is sent with
 * is the reason's (`statusOf`), so no code outside the edge picks a status.
 */
export const refuse = (reason: ErrorTag, message: string) => new ApiError({ code: statusOf(reason), message, tag: reason })

/** A success envelope; `message` is what the client shows in its success toast on writes. */
export const ok = <A>(data: A, message = "Success", token?: string) => ({
  meta: token === undefined ? { code: 200, message } : { code: 200, message, token },
  data
})
