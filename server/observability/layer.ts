import { Layer, Metric } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import type { ServerConfigShape } from "../config.ts"

/**
 * What a server runs under, below every other layer: a metrics registry of its own (two servers in one process,
 * as tests start them, count apart), and with OTEL_EXPORTER_OTLP_ENDPOINT set, Effect's OTLP tracer, so every
 * span (a request's, each `Effect.fn`'s, each SQL statement's) goes to the collector.
 */
export const ObservabilityLive = (config: ServerConfigShape) =>
  Layer.mergeAll(
    Layer.succeed(Metric.MetricRegistry)(new Map()),
    config.otlpTracesUrl === undefined ? Layer.empty : OtlpTracer.layer({
      url: config.otlpTracesUrl,
      resource: { serviceName: "khel", attributes: { "service.instance.id": config.serverId } }
    }).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))
  )
