import { ByteSize, Cause, Effect, Option, type Types } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ErrorTag } from "../../src/schema/errors.ts"
import { ServerConfig } from "../config.ts"
import { failureResponse, toFailureResponse } from "./envelopes.ts"
import { clientAddress, isSecure } from "./client.ts"
import { isApiPath, securityHeaders } from "./headers.ts"

/** Request bodies are refused past this size before they are parsed... */
export const MAX_BODY_BYTES = 1024 * 1024
/** ...except where a payment screenshot or a QR image travels as a data URL. */
export const MAX_UPLOAD_BODY_BYTES = 8 * 1024 * 1024

const UPLOAD_ROUTES: ReadonlyArray<readonly [method: string, path: RegExp]> = [
  ["POST", /^\/api\/v1\/admin-deposit-request$/],
  ["POST", /^\/api\/v1\/admin\/deposit-accounts$/],
  ["PUT", /^\/api\/v1\/admin\/deposit-accounts\/[^/]+$/]
]

export const bodyLimit = (method: string, path: string) =>
  UPLOAD_ROUTES.some(([m, pattern]) => m === method && pattern.test(path)) ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES

/** A JSON string escape that decodes to NUL (`\u0000`, not `\\u0000`). */
const JSON_NUL = /(?<!\\)(?:\\\\)*\\u0000/

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0

const mediaType = (value: string | undefined) => value?.split(";")[0]!.trim().toLowerCase()

const STATUS_MESSAGES: Record<number, readonly [string, ErrorTag?]> = {
  400: ["The request could not be understood."],
  404: ["There is no such address."],
  405: ["This address does not take that method."],
  413: ["The request is too large."],
  415: ["Send the request body as JSON (Content-Type: application/json).", "UnsupportedMediaType"],
  499: ["The request was abandoned."],
  503: ["The server is stopping. Please try again."]
}

const contentTypeOf = (response: HttpServerResponse.HttpServerResponse) =>
  response.headers["content-type"] ?? ("contentType" in response.body ? response.body.contentType : undefined)

/** An API answer that is not JSON (the framework's own 404, 405, 415…) becomes the envelope with the same status. */
const asEnvelope = (request: HttpServerRequest.HttpServerRequest, path: string, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 400 || mediaType(contentTypeOf(response)) === "application/json") return response
  const [message, tag] = response.status === 404
    ? [`There is no ${request.method} ${path}.`, undefined]
    : STATUS_MESSAGES[response.status] ?? ["The request could not be handled."]
  return failureResponse(response.status, message, tag)
}

/**
 * The router's global middleware must say it leaves unknown errors alone; this
 * one answers every failure itself, so its error channel is empty, which is
 * also "nothing left unhandled".
 */
const answersEverything = <R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, R> =>
  effect

const isTooLarge = (cause: Cause.Cause<unknown>) =>
  cause.reasons.some((reason) => {
    const error = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
  })

/**
 * The first and last thing every request meets, site and API alike:
 *
 * - the client's address and scheme, read from `X-Forwarded-For` and
 *   `X-Forwarded-Proto` only behind proxies the operator trusts (TRUST_PROXY);
 * - an address with a broken %-escape or a NUL is refused (400);
 * - bodies are limited before they are parsed: 413 past 1 MB (8 MB where a
 *   screenshot travels), from `Content-Length` at once and while reading
 *   otherwise; API bodies must be JSON (415) and carry no NUL (400);
 * - every API answer is the envelope, even the framework's own 404 and 415;
 * - security headers on every answer (./headers.ts).
 */
export const GateLive = HttpRouter.middleware(
  Effect.gen(function*() {
    const { trustProxy } = yield* ServerConfig
    return (app) =>
      answersEverything(Effect.gen(function*() {
        const original = yield* HttpServerRequest.HttpServerRequest
        const request = original.modify({
          remoteAddress: Option.fromNullishOr(clientAddress(original, trustProxy)),
          protocol: isSecure(original, trustProxy) ? "https" : "http"
        })
        const path = request.url.split("?")[0]!
        const api = isApiPath(path)
        const max = bodyLimit(request.method, path)
        const refuse = (status: number, message: string, tag?: ErrorTag) =>
          api ? failureResponse(status, message, tag) : HttpServerResponse.text(message, { status })
        const tooLarge = () => HttpServerResponse.setHeader(refuse(413, `The request is too large: at most ${max / 1024 / 1024} MB.`), "connection", "close")

        const response = yield* Effect.gen(function*() {
          if (/%00/.test(request.url)) return refuse(400, "The address must not contain a NUL character.")
          try {
            decodeURIComponent(request.url)
          } catch {
            return refuse(400, "The address is not valid: it has a broken %-escape.")
          }
          if (Number(request.headers["content-length"] ?? 0) > max) return tooLarge()
          if (api && hasBody(request)) {
            const type = mediaType(request.headers["content-type"])
            if (type !== undefined && type !== "application/json") return refuse(415, STATUS_MESSAGES[415]![0], "UnsupportedMediaType")
            const encoding = request.headers["content-encoding"]
            if (encoding !== undefined && encoding !== "identity") return refuse(415, "Send the request body uncompressed.", "UnsupportedMediaType")
            // Read once here (the handler gets this request, its body already read): too large, or a NUL in any text.
            const text = yield* request.text
            if (JSON_NUL.test(text) || text.includes("\u0000")) return refuse(400, "Text must not contain the NUL character.")
          }
          return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, request)
        }).pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(max)),
          Effect.catchCause((cause) => {
            if (isTooLarge(cause)) return Effect.succeed(tooLarge())
            // The framework's own failures (no route, a body that cannot be read) keep their status; the rest is ours.
            const failure = Cause.findErrorOption(cause)
            if (failure._tag === "Some" && HttpServerError.isHttpServerError(failure.value)) {
              return Effect.map(HttpServerError.causeResponse(cause), ([response]) => response)
            }
            return toFailureResponse(cause)
          })
        )
        return securityHeaders(request, path, api, api ? asEnvelope(request, path, response) : response)
      }))
  }),
  { global: true }
)
