import { Context, Effect, Layer, Option, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { ErrorTag, Reasons } from "../../schema/errors.ts"
import { NOT_UNDERSTOOD, readAnswer, UNREACHABLE } from "../../services/answer.ts"
import { type AnyEndpoint, fillPath, type Input, type Success } from "../../services/endpoint.ts"
import { readDeskToken, sessionEnded } from "./session.ts"

/** Why a desk call did not return data: the envelope's code (0 when the server was not reached), message and reason. */
export class DeskFailure extends Schema.TaggedError<DeskFailure>()("DeskFailure", {
  code: Schema.Int,
  message: Schema.String,
  reason: ErrorTag
}) {}

export type { Input, Success } from "../../services/endpoint.ts"

export interface CallOptions {
  /** A write that moves money or decides something: the server answers a replay with the first answer. */
  readonly idempotencyKey?: string
}

/**
 * Calls a desk endpoint of the shared HttpApi definition with the desk
 * session's token and decodes its envelope with the endpoint's own schema;
 * a 401 ends the session (the root actor hears it). A text answer (the audit
 * CSV) is returned as it came. It shows no toasts: the desk's machines show
 * them on a call's outcome (src/desk/root/runtime.ts `deskToasts`).
 */
export class DeskApi extends Context.Service<DeskApi, {
  call<E extends AnyEndpoint>(endpoint: E, input: Input<E>, options?: CallOptions): Effect.Effect<Success<E>, DeskFailure>
}>()("khel/DeskApi") {
  static readonly layer = Layer.effect(
    DeskApi,
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient

      const call = <E extends AnyEndpoint>(endpoint: E, input: Input<E>, options: CallOptions = {}) =>
        Effect.gen(function*() {
          const { payload, query, params } = input as { payload?: unknown; query?: Record<string, string>; params?: Record<string, string> }
          let request = HttpClientRequest.make(endpoint.method as "GET")(`${location.origin}${fillPath(endpoint.path, params)}`, { acceptJson: true })
          const token = readDeskToken()
          if (token) request = HttpClientRequest.bearerToken(request, token)
          if (query) request = HttpClientRequest.setUrlParams(request, query)
          if (options.idempotencyKey) request = HttpClientRequest.setHeader(request, "idempotency-key", options.idempotencyKey)
          if (payload !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, payload)

          const failed = (failure: { code: number; message: string; reason: ErrorTag }) => Effect.fail(new DeskFailure(failure))

          const response = yield* client.execute(request).pipe(Effect.catch(() => failed({ code: 0, message: UNREACHABLE, reason: "Unreachable" })))
          const type = response.headers["content-type"] ?? ""
          if (response.status === 200 && type.startsWith("text/")) return (yield* response.text.pipe(Effect.orElseSucceed(() => ""))) as Success<E>
          const body = yield* response.json.pipe(Effect.orElseSucceed(() => undefined))
          const reading = readAnswer(response.status, body, Option.getOrUndefined(Context.getOption(endpoint.annotations, Reasons)))
          switch (reading._tag) {
            case "SessionEnded":
              sessionEnded()
              return yield* new DeskFailure({ code: 401, message: "Your desk session has ended. Please sign in again.", reason: "SessionEnded" })
            case "Success": {
              const [schema] = endpoint.success as ReadonlySet<Schema.Top>
              return yield* Schema.decodeUnknownEffect(schema as Schema.Codec<Success<E>, unknown>)(body).pipe(
                Effect.catch(() => failed({ code: 0, message: NOT_UNDERSTOOD, reason: "BadResponse" }))
              )
            }
            case "Refused":
            case "Broken":
              return yield* failed(reading.failure)
          }
        })

      return DeskApi.of({ call })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
