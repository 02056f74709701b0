import { Context, Effect, Layer, Option, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Meta } from "../schema/envelope.ts"
import { ErrorTag, Reasons, readTag } from "../schema/errors.ts"
import { Navigation } from "./navigation.ts"
import { Notices } from "./notices.ts"
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

/**
 * What a call needs of an endpoint of the shared definition: its method, path
 * and schemas. (Structural, so endpoints of a group used on its own, before
 * the whole API adds its middleware, fit too.)
 */
type AnyEndpoint = Pick<HttpApiEndpoint.Top, "method" | "path" | "success" | "annotations" | "~Success" | "~Payload" | "~Query" | "~Params">

/** The decoded success body of an endpoint: its envelope. */
export type Success<E extends AnyEndpoint> = E["~Success"]["Type"]

/** What a call needs besides the endpoint: the payload, query and path params its schemas describe. */
export type Input<E extends AnyEndpoint> =
  & ([E["~Payload"]["Type"]] extends [never] ? {} : { readonly payload: E["~Payload"]["Encoded"] })
  & ([E["~Query"]["Type"]] extends [never] ? {} : { readonly query: E["~Query"]["Encoded"] })
  & ([E["~Params"]["Type"]] extends [never] ? {} : { readonly params: Record<string, string> })

/**
 * Which toasts a call shows. "write": the success message as a success toast
 * and a failure message as a warning toast (SPEC section 7). "failure": the
 * warning only. "none": the caller shows what it needs (red alerts in modals,
 * startup calls that are only logged).
 */
export type Notify = "write" | "failure" | "none"

export interface CallOptions {
  readonly notify?: Notify
  /** Makes a money-moving write safe to retry: the server answers a replay with the first response. */
  readonly idempotencyKey?: string
}

type Listener = (reason: "expired") => void
const sessionEndedListeners = new Set<Listener>()

/** The session machine hears here that the server ended the session (any 401). */
export const onSessionEnded = (listener: Listener) => {
  sessionEndedListeners.add(listener)
  return () => {
    sessionEndedListeners.delete(listener)
  }
}

// Only `meta` matters to tell success from failure; `data` is checked by the endpoint schema.
const decodeFailure = Schema.decodeUnknownOption(Schema.Struct({ meta: Meta }))

const fillPath = (path: string, params: Record<string, string> | undefined) =>
  params ? path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? "")) : path

const origin = () => (typeof location === "undefined" ? "http://localhost" : location.origin)

/**
 * Calls an endpoint of the shared HttpApi definition and decodes its envelope.
 * Carries the bearer token, applies the 401 rules of SPEC section 8 and shows
 * the toasts `notify` asks for.
 */
export class Api extends Context.Service<Api, {
  call<E extends AnyEndpoint>(endpoint: E, input: Input<E>, options?: CallOptions): Effect.Effect<Success<E>, ApiFailure>
}>()("khel/Api") {
  static readonly layer = Layer.effect(
    Api,
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const storage = yield* Storage
      const notices = yield* Notices
      const navigation = yield* Navigation

      const endSession = (code: number, httpStatus: number) =>
        Effect.gen(function*() {
          if (httpStatus === 401) {
            // HTTP 401: the stored session is gone; sign in again.
            yield* storage.clearSession
            yield* navigation.go("/login")
          } else {
            yield* storage.clearSession
            yield* navigation.go("/")
          }
          for (const listener of sessionEndedListeners) listener("expired")
          return yield* new ApiFailure({ code, message: "Your session has ended. Please log in again.", reason: "SessionEnded" })
        })

      const call = <E extends AnyEndpoint>(endpoint: E, input: Input<E>, options: CallOptions = {}) =>
        Effect.gen(function*() {
          const notify = options.notify ?? (endpoint.method === "GET" ? "none" : "write")
          const token = yield* storage.token
          const { payload, query, params } = input as { payload?: unknown; query?: Record<string, string>; params?: Record<string, string> }

          let request = HttpClientRequest.make(endpoint.method as "GET")(`${origin()}${fillPath(endpoint.path, params)}`, {
            acceptJson: true
          })
          if (token) request = HttpClientRequest.bearerToken(request, token)
          if (query) request = HttpClientRequest.setUrlParams(request, query)
          if (options.idempotencyKey) request = HttpClientRequest.setHeader(request, "idempotency-key", options.idempotencyKey)
          if (payload !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, payload)

          const networkError = (message: string, reason: "Unreachable" | "BadResponse") =>
            Effect.gen(function*() {
              if (notify !== "none") yield* notices.error(message)
              return yield* new ApiFailure({ code: 0, message, reason })
            })

          const response = yield* client.execute(request).pipe(
            Effect.catch(() => networkError("We could not reach the server. Check your connection and try again.", "Unreachable"))
          )
          const body = yield* response.json.pipe(Effect.orElseSucceed(() => undefined))

          const failure = decodeFailure(body)
          const metaCode = failure._tag === "Some" ? failure.value.meta.code : undefined
          if (response.status === 401 || metaCode === 401) return yield* endSession(metaCode ?? 401, response.status)

          if (response.status === 200 && (metaCode === undefined || metaCode === 200)) {
            const [schema] = endpoint.success as ReadonlySet<Schema.Top>
            const decoded = yield* Schema.decodeUnknownEffect(schema as Schema.Codec<Success<E>, unknown>)(body).pipe(
              Effect.catch(() => networkError("The server sent an answer this page does not understand. Please reload.", "BadResponse"))
            )
            // The success message of a write (SPEC section 7), from the envelope's meta.
            if (notify === "write" && failure._tag === "Some" && failure.value.meta.message) yield* notices.success(failure.value.meta.message)
            return decoded
          }

          // The reasons the endpoint declares (src/schema/errors.ts): a machine is handed no other specific one.
          const declared = Option.getOrUndefined(Context.getOption(endpoint.annotations, Reasons))
          if (failure._tag === "Some" && response.status < 500) {
            // A failure the server explains (a non-200 meta code): the player reads its message.
            const { code, message, error } = failure.value.meta
            if (notify !== "none") yield* notices.warning(message)
            return yield* new ApiFailure({ code, message, reason: readTag(code, error, declared) })
          }
          // An HTTP error: the server's message when it sent one.
          const message = failure._tag === "Some"
            ? failure.value.meta.message
            : `The server answered ${response.status}. Please try again in a moment.`
          if (notify !== "none") yield* notices.error(message)
          const code = metaCode ?? response.status
          return yield* new ApiFailure({ code, message, reason: readTag(code, failure._tag === "Some" ? failure.value.meta.error : undefined, declared) })
        })

      return Api.of({ call })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
