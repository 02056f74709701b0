import { Context, Effect, Layer, Option, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { ErrorTag, Reasons } from "../schema/errors.ts"
import { NOT_UNDERSTOOD, readAnswer, UNREACHABLE } from "./answer.ts"
import { type AnyEndpoint, fillPath, type Input, type Success } from "./endpoint.ts"
import { endSession as sessionEnded, SESSION_ENDED } from "./sessionEnd.ts"
import { Storage } from "./storage.ts"

/**
 * Why a call did not return data. `code` is the envelope's code, or 0 when the
 * server was not reached; `reason` is the decoded `meta.error` tag, what
 * machines guard on (`message` is for the player).
 */
export class ApiFailure extends Schema.TaggedError<ApiFailure>()("ApiFailure", {
  code: Schema.Int,
  message: Schema.String,
  reason: ErrorTag
}) {}

export interface CallOptions {
  /** Makes a money-moving write safe to retry: the server answers a replay with the first response. */
  readonly idempotencyKey?: string
}

export { onSessionEnded } from "./sessionEnd.ts"
export type { Input, Success } from "./endpoint.ts"

const origin = () => (typeof location === "undefined" ? "http://localhost" : location.origin)

/**
 * Calls an endpoint of the shared HttpApi definition and decodes its envelope.
 * Carries the bearer token and applies the 401 rules of SPEC section 8. It
 * shows no toasts: a machine shows them on the call's outcome (the success
 * message is the envelope's `meta.message`, src/root/bridge.ts `written`).
 */
export class Api extends Context.Service<Api, {
  call<E extends AnyEndpoint>(endpoint: E, input: Input<E>, options?: CallOptions): Effect.Effect<Success<E>, ApiFailure>
}>()("khel/Api") {
  static readonly layer = Layer.effect(
    Api,
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const storage = yield* Storage

      const endSession = (code: number, httpStatus: number) =>
        Effect.suspend(() => {
          sessionEnded(httpStatus)
          return Effect.fail(new ApiFailure({ code, message: SESSION_ENDED, reason: "SessionEnded" }))
        })

      const call = <E extends AnyEndpoint>(endpoint: E, input: Input<E>, options: CallOptions = {}) =>
        Effect.gen(function*() {
          const token = yield* storage.token
          const { payload, query, params } = input as { payload?: unknown; query?: Record<string, string>; params?: Record<string, string> }

          let request = HttpClientRequest.make(endpoint.method as "GET")(`${origin()}${fillPath(endpoint.path, params)}`, {
            acceptJson: true
          })
          if (token) request = HttpClientRequest.bearerToken(request, token)
          if (query) request = HttpClientRequest.setUrlParams(request, query)
          if (options.idempotencyKey) request = HttpClientRequest.setHeader(request, "idempotency-key", options.idempotencyKey)
          if (payload !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, payload)

          const networkError = (message: string, reason: "Unreachable" | "BadResponse") => Effect.fail(new ApiFailure({ code: 0, message, reason }))

          const response = yield* client.execute(request).pipe(Effect.catch(() => networkError(UNREACHABLE, "Unreachable")))
          const body = yield* response.json.pipe(Effect.orElseSucceed(() => undefined))

          // The reasons the endpoint declares (src/schema/errors.ts): a machine is handed no other specific one.
          const reading = readAnswer(response.status, body, Option.getOrUndefined(Context.getOption(endpoint.annotations, Reasons)))
          switch (reading._tag) {
            case "SessionEnded":
              return yield* endSession(reading.code, response.status)
            case "Success": {
              const [schema] = endpoint.success as ReadonlySet<Schema.Top>
              return yield* Schema.decodeUnknownEffect(schema as Schema.Codec<Success<E>, unknown>)(body).pipe(
                Effect.catch(() => networkError(NOT_UNDERSTOOD, "BadResponse"))
              )
            }
            case "Refused":
            case "Broken":
              return yield* new ApiFailure(reading.failure)
          }
        })

      return Api.of({ call })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
