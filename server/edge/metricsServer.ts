import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer } from "effect"
import { HttpMiddleware, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { createServer } from "node:http"
import { ServerConfig } from "../config.ts"
import { preregister } from "../observability/metrics.ts"
import { makeSampler } from "../observability/sampled.ts"

/** Where this server's metrics are served (`http://127.0.0.1:9464`). */
export class MetricsEndpoint extends Context.Service<MetricsEndpoint, { readonly url: string }>()("khel/MetricsEndpoint") {}

/**
 * GET /metrics in Prometheus' text format (Effect's PrometheusMetrics), on a port of its own (METRICS_PORT, on
 * METRICS_HOST: loopback unless the operator says otherwise), never on the site's: what the metrics tell (queues,
 * volumes, the odds leader) is for the operator's Prometheus only. States are read at each scrape (observability/sampled.ts).
 */
export const MetricsServerLive = Layer.unwrap(Effect.gen(function*() {
  const { metricsPort, metricsHost } = yield* ServerConfig
  yield* preregister
  const sample = yield* makeSampler
  const metrics = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (request.url.split("?")[0] !== "/metrics") return HttpServerResponse.text("Not found", { status: 404 })
    if (request.method !== "GET" && request.method !== "HEAD") return HttpServerResponse.text("Method not allowed", { status: 405 })
    yield* sample
    return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType: "text/plain; version=0.0.4; charset=utf-8" })
  })
  const endpoint = Layer.effect(MetricsEndpoint, HttpServer.addressFormattedWith((url) => Effect.succeed({ url })))
  return Layer.merge(HttpServer.serve(metrics), endpoint).pipe(
    // Scrapes are not traced: one every few seconds would crowd out the requests worth a look.
    Layer.provide(HttpMiddleware.layerTracerDisabledForUrls(["/metrics"])),
    Layer.provide(NodeHttpServer.layer(createServer, { port: metricsPort, host: metricsHost }))
  )
}))
