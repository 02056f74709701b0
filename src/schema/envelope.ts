import { Schema } from "effect"

/**
 * Every response of the API is `{ meta: { code, message, token? }, data }`.
 * `code` 200 is success, 401 means the session is gone, anything else is a
 * failure whose `message` is meant for the player.
 */
export const Meta = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  token: Schema.optionalKey(Schema.String)
})
export type Meta = typeof Meta.Type

export const Envelope = <S extends Schema.Top>(data: S) =>
  Schema.Struct({ meta: Meta, data })

/** The body of every failure: same envelope, `data` is null. */
export const FailureEnvelope = Envelope(Schema.Null)
export type FailureEnvelope = typeof FailureEnvelope.Type

/**
 * The one error a handler raises for anything the player or operator should
 * read. The server renders it as a `FailureEnvelope` whose HTTP status equals
 * `code`; clients never see a stack trace.
 */
export class ApiError extends Schema.TaggedError<ApiError>()("ApiError", {
  code: Schema.Int,
  message: Schema.String
}, { httpApiStatus: 400 }) {}

export const fail = (code: number, message: string) => new ApiError({ code, message })
export const badRequest = (message: string) => fail(400, message)
export const unauthorized = (message = "Your session has ended. Please log in again.") => fail(401, message)
export const forbidden = (message: string) => fail(403, message)
export const notFound = (message: string) => fail(404, message)
export const conflict = (message: string) => fail(409, message)
export const unprocessable = (message: string) => fail(422, message)
export const tooMany = (message: string) => fail(429, message)

/** A success envelope; `message` is what the client shows in its success toast on writes. */
export const ok = <A>(data: A, message = "Success", token?: string) => ({
  meta: token === undefined ? { code: 200, message } : { code: 200, message, token },
  data
})
