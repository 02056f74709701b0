import { Cause, Context, Effect, Fiber, Layer, SchemaIssue } from "effect"
import type { Server } from "node:http"
import { HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { Envelopes } from "../../src/schema/middleware.ts"
import { ApiError, type FailureEnvelope } from "../../src/schema/envelope.ts"
import { defaultTag, type ErrorTag } from "../../src/schema/errors.ts"
import { RequestRoute } from "../observability/http.ts"

/**
 * A failure as the client reads it: the envelope, with the HTTP status equal to `meta.code`, the reason in
 * `meta.error`, and the request's trace in `meta.traceId` (what a player's complaint quotes to find the request's
 * log lines and spans).
 */
export const failureResponse = (code: number, message: string, error: ErrorTag = defaultTag(code)) => {
  const traceId = Fiber.getCurrent()?.cache.span?.traceId
  const meta = traceId === undefined ? { code, message, error } : { code, message, error, traceId }
  return HttpServerResponse.jsonUnsafe({ meta, data: null } satisfies FailureEnvelope, { status: code })
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const SLOT_NAMES = { Payload: "body", Query: "query", Params: "path", Headers: "headers", Body: "response", ResponseHeaders: "response" } as const

/** "Invalid request body: password: Expected string, got 42" — names the field, never echoes the schema. */
export const describeSchemaError = (error: HttpApiError.HttpApiSchemaError) => {
  const issues = formatIssues(error.cause.issue).issues.slice(0, 3).map((issue) => {
    const path = (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".")
    return path ? `${path}: ${issue.message}` : issue.message
  })
  return `Invalid request ${SLOT_NAMES[error.kind]}${issues.length ? `: ${issues.join("; ")}` : ""}`
}

/**
 * Every failure leaves the API as an envelope: `ApiError` with its own code,
 * a payload that does not match its schema as 400 naming the field, and
 * anything unexpected as 500 with a generic message (the detail goes to the log,
 * never to the client).
 */
export const toFailureResponse = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const error = Cause.findErrorOption(cause)
    if (error._tag === "Some") {
      const failure = error.value
      if (failure instanceof ApiError) return failureResponse(failure.code, failure.message, failure.tag)
      if (HttpApiError.HttpApiSchemaError.is(failure) && failure.kind !== "Body" && failure.kind !== "ResponseHeaders") {
        return failureResponse(400, describeSchemaError(failure))
      }
    }
    // Interrupted (client gone, server stopping): nothing to render.
    if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause as Cause.Cause<never>)
    yield* Effect.logError("request failed", cause)
    return failureResponse(500, "Something went wrong on our side. Please try again.")
  })

/**
 * Around every endpoint: failures rendered as envelopes; the endpoint's path named as the request's route (its
 * metrics' label) and its group as the capability of its log lines.
 */
export const EnvelopesLive = Layer.succeed(Envelopes, (httpEffect, { endpoint, group }) =>
  Effect.withFiber((fiber) => {
    const slot = Context.getOrUndefined(fiber.context, RequestRoute)
    if (slot) slot.route = endpoint.path
    return Effect.catchCause(httpEffect, toFailureResponse).pipe(Effect.annotateLogs("capability", group.identifier))
  }))

/**
 * A request the HTTP parser refuses (a NUL or a newline in a header, a
 * broken request line) never reaches the router: answer it with the
 * envelope too, then close.
 */
export const answerBadRequests = (server: Server) =>
  server.on("clientError", (_error, socket) => {
    if (!socket.writable) return socket.destroy()
    const body = JSON.stringify({ meta: { code: 400, message: "The request could not be understood.", error: "InvalidInput" }, data: null })
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`
    )
  })
