import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, References } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Api } from "../src/schema/api.ts"
import { AdminSocketLive } from "./admin/socket.ts"
import { BettingHandlersLive, BettingServicesLive } from "./betting/layer.ts"
import { CasinoHandlersLive, CasinoRoutes, CasinoServicesLive, ProviderSignatureLive } from "./casino/layer.ts"
import { Khel } from "./casino/khel/Khel.ts"
import { Catalogue } from "./catalogue/Catalogue.ts"
import { ResultsHandlers, SportsHandlers } from "./catalogue/http.ts"
import { Results } from "./catalogue/Results.ts"
import { ServerClockLive } from "./clock.ts"
import { ServerConfig, type ServerConfigShape } from "./config.ts"
import { DatabaseLive } from "./db/database.ts"
import { DeskHandlersLive, DeskMarketsLive, DeskServicesLive } from "./desk/layer.ts"
import { AuthenticationLive, StaffAuthenticationLive } from "./edge/auth.ts"
import { SharedCaching } from "./edge/caching.ts"
import { Compression } from "./edge/compression.ts"
import { drainOnStop } from "./edge/drain.ts"
import { answerBadRequests, EnvelopesLive } from "./edge/envelopes.ts"
import { HealthRoutes } from "./edge/health.ts"
import { MetricsServerLive } from "./edge/metricsServer.ts"
import { SiteRoutes } from "./edge/site.ts"
import { Visitors } from "./edge/visitors.ts"
import { SystemHandlers } from "./edge/system.ts"
import { TestClockRoutes } from "./edge/testClock.ts"
import { IdentityHandlersLive, IdentityServicesLive, SessionsLive } from "./identity/layer.ts"
import { Idempotency } from "./ledger/Idempotency.ts"
import { IntegrityAdminHandlers } from "./integrity/http.ts"
import { Signals } from "./integrity/Signals.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { Draws } from "./odds/Draws.ts"
import { PaymentHandlersLive, PaymentServicesLive } from "./payments/layer.ts"
import { ProtectionHandlersLive, ProtectionServicesLive } from "./protection/layer.ts"
import { PushHandlers, PushLive } from "./push/layer.ts"
import { Realtime } from "./realtime/Realtime.ts"
import { GateLive } from "./edge/gate.ts"
import { RateLimits } from "./limits/RateLimits.ts"
import { seedDemo } from "./seed/demo.ts"
import { ManifestRoute, SettingsHandlers } from "./settings/http.ts"
import { Settings } from "./settings/Settings.ts"
import { BeaconLimitsLive, VitalsHandlers } from "./vitals/http.ts"
import { Vitals } from "./vitals/Vitals.ts"
import { observeRequests } from "./observability/http.ts"
import { ObservabilityLive } from "./observability/layer.ts"

/** Log lines of what a layer does by itself (start-up, background work) name its capability; a request's name its API group. */
const capability = <A, E, R>(name: string, layer: Layer.Layer<A, E, R>) =>
  Layer.provide(layer, Layer.succeed(References.CurrentLogAnnotations)({ capability: name }))

/** Demo data for an empty database, unless told otherwise (SEED_DEMO=false). */
const SeedLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  return config.seedDemo ? capability("seed", Layer.effectDiscard(seedDemo)) : Layer.empty
}))

/** Domain services shared by the HTTP handlers and socket.io, each built once. */
const ServicesLive = Layer.mergeAll(Settings.layer, Catalogue.layer, Results.layer, capability("vitals", Vitals.layer), Visitors.layer, SeedLive,
  capability("payments", PaymentServicesLive), capability("casino", CasinoServicesLive),
  // The odds feed reads the catalogue when it starts: after the demo data is in.
  // The desk's markets and risk stand on settlement and the feed.
  capability("desk", DeskMarketsLive).pipe(Layer.provideMerge(capability("betting", BettingServicesLive).pipe(Layer.provide(SeedLive)))),
  // The operator's desk, over payments (and the same instances of everything below).
  capability("desk", DeskServicesLive).pipe(Layer.provide(PaymentServicesLive))).pipe(
  // The feed's secret exists before the demo data's events are made (each is committed to it as it is made).
  Layer.provideMerge(Draws.layer),
  Layer.provideMerge(capability("identity", IdentityServicesLive)),
  Layer.provideMerge(RateLimits.layer),
  // Where money moves (sign-up, payments, bets, settlement, the casino), player protection is asked first.
  Layer.provideMerge(capability("protection", ProtectionServicesLive)),
  Layer.provideMerge(Layer.mergeAll(Ledger.layer, Idempotency.layer, Signals.layer)),
  // Notifications go out from payments, settlement and identity (a logout removes its subscriptions).
  Layer.provideMerge(capability("push", PushLive)),
  Layer.provideMerge(capability("realtime", Realtime.layer)),
  Layer.provideMerge(SessionsLive),
  Layer.provideMerge(capability("database", DatabaseLive)),
  // The server's clock (movable in tests with TEST_CLOCK on), read by every service above.
  Layer.provideMerge(ServerClockLive)
)

const HandlersLive = Layer.mergeAll(
  SettingsHandlers,
  SportsHandlers,
  ResultsHandlers,
  SystemHandlers,
  VitalsHandlers,
  IdentityHandlersLive,
  PaymentHandlersLive,
  BettingHandlersLive,
  CasinoHandlersLive,
  ProtectionHandlersLive,
  IntegrityAdminHandlers,
  DeskHandlersLive,
  PushHandlers
)

const routes = (production: boolean) => {
  const api = HttpApiBuilder.layer(Api, { openapiPath: "/api/v1/openapi.json" }).pipe(
    Layer.provide(HandlersLive),
    // Middleware is looked up again per request, so it stays in the context.
    Layer.provideMerge(Layer.mergeAll(EnvelopesLive, AuthenticationLive, StaffAuthenticationLive, ProviderSignatureLive, BeaconLimitsLive))
  )
  const docs = production ? Layer.empty : HttpApiScalar.layer(Api, { path: "/api/docs" })
  // Compression before SharedCaching: it then wraps it, and compresses an answer once per ETag (edge/compression.ts).
  return Layer.mergeAll(api, docs, SiteRoutes, CasinoRoutes, HealthRoutes, ManifestRoute, Compression, SharedCaching, GateLive, TestClockRoutes)
}

/** This server as seen from itself (the built-in game provider calls its wallet over HTTP). */
const ownOrigin = (server: Server) => {
  const { address, family, port } = server.address() as AddressInfo
  const host = family === "IPv6" ? `[${address === "::" ? "::1" : address}]` : address === "0.0.0.0" ? "127.0.0.1" : address
  return `http://${host}:${port}`
}

/** How long an idle kept-alive connection stays open. */
export const KEEP_ALIVE_MS = 65_000

/**
 * The whole server on one port: HTTP API, socket.io and the built site; its metrics on a port of their own.
 * `server` is the Node server it listens with (tests read its address).
 */
export const makeServer = (config: ServerConfigShape, server: Server = createServer()) => {
  // Idle kept-alive connections stay open longer than clients keep theirs (nginx 4 s, browsers and load balancers
  // up to 60 s): Node's default 5 s would close one just as a client reuses it, a reset request.
  server.keepAliveTimeout = KEEP_ALIVE_MS
  const http = HttpRouter.serve(routes(config.production), { disableLogger: !config.logRequests, middleware: observeRequests }).pipe(
    Layer.provide(NodeHttpServer.layer(() => server, { port: config.port, host: config.host }))
  )
  // socket.io goes on after the API's listeners, so it can pass everything else through. Both let go first when
  // the server stops: socket.io's clients go elsewhere, kept-alive connections are closed once answered. Once the
  // server listens, Khel Originals finishes the rounds a crash may have left half-way.
  const realtime = Layer.effectDiscard(Effect.gen(function*() {
    yield* drainOnStop(server)
    yield* Realtime.use((realtime) => realtime.attach(server))
    answerBadRequests(server)
    yield* Khel.use((khel) => khel.recover(ownOrigin(server)))
  })).pipe(
    Layer.provide(http)
  )
  // The services stay in the output, so tools and tests built on this layer can use them.
  return Layer.mergeAll(realtime, AdminSocketLive, MetricsServerLive).pipe(
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(ServerConfig.layer(config)),
    Layer.provideMerge(ObservabilityLive(config))
  )
}
