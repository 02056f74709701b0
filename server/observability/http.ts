import { Cause, Context, Effect, Exit, Metric } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { httpDuration, httpRequests, labelled } from "./metrics.ts"

/**
 * The route a request matched, as a label: an API endpoint's path (`/api/v1/bet-sport`, `/api/v1/x/:id`), set
 * by the API's own middleware (edge/envelopes.ts), which knows the endpoint; other requests are named by
 * `routeOf`. Never the raw address, which would make a series per player or per id.
 */
export class RequestRoute extends Context.Service<RequestRoute, { route: string | undefined }>()("khel/RequestRoute") {}

/** Addresses outside the API's endpoints, by what serves them. */
export const routeOf = (path: string) => {
  if (path === "/health" || path === "/ready" || path === "/api/v1/openapi.json" || path === "/api/docs") return path
  if (path.startsWith("/api/") || path.startsWith("/identity/")) return "unmatched"
  if (path.startsWith("/images/")) return "/images/*"
  if (path.startsWith("/games/")) return "/games/*"
  if (path.startsWith("/assets/")) return "/assets/*"
  return "site"
}

const requestsBy = labelled(httpRequests)
const durationBy = labelled(httpDuration)

const statusOf = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) =>
  Exit.isSuccess(exit) ? exit.value.status : Cause.hasInterruptsOnly(exit.cause) ? 499 : 500

/**
 * Counts and times every request of the site's port, from its arrival to its answer written (the whole chain,
 * as `HttpRouter.serve`'s middleware). Being a middleware, it also gives every request its server span, so
 * every log line and failure envelope of a request carries its trace id, exported or not.
 */
export const observeRequests = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const slot = { route: undefined as string | undefined }
    const start = performance.now()
    return app.pipe(
      Effect.provideService(RequestRoute, slot),
      Effect.onExit((exit) => {
        const method = request.method
        const route = slot.route ?? routeOf(request.url.split("?")[0]!)
        return Effect.andThen(
          Metric.update(requestsBy({ method, route, status: String(statusOf(exit)) }), 1),
          Metric.update(durationBy({ method, route }), (performance.now() - start) / 1000)
        )
      })
    )
  })
