import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { createServer, type Server } from "node:http"
import { Api } from "../src/schema/api.ts"
import { Catalogue } from "./catalogue/Catalogue.ts"
import { ServerConfig, type ServerConfigShape } from "./config.ts"
import { DatabaseLive } from "./db/database.ts"
import { EnvelopesLive } from "./http/envelopes.ts"
import { SettingsHandlers } from "./http/settings.ts"
import { SiteRoutes } from "./http/site.ts"
import { SportsHandlers } from "./http/sports.ts"
import { SystemHandlers } from "./http/system.ts"
import { Realtime, SocketAuthenticator } from "./realtime/Realtime.ts"
import { seedDemo } from "./seed/demo.ts"
import { Settings } from "./settings/Settings.ts"

/** The database, migrated and (unless told otherwise) holding the demo data. */
const DataLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  const seeded = config.seedDemo ? Layer.effectDiscard(seedDemo) : Layer.empty
  return seeded.pipe(Layer.provideMerge(DatabaseLive))
}))

/** Domain services shared by the HTTP handlers and socket.io. */
const ServicesLive = Layer.mergeAll(Settings.layer, Catalogue.layer, Realtime.layer).pipe(
  Layer.provideMerge(SocketAuthenticator.visitors),
  Layer.provideMerge(DataLive)
)

const HandlersLive = Layer.mergeAll(SettingsHandlers, SportsHandlers, SystemHandlers)

const routes = (production: boolean) => {
  const api = HttpApiBuilder.layer(Api, { openapiPath: "/api/v1/openapi.json" }).pipe(
    Layer.provide(HandlersLive),
    // Middleware is looked up again per request, so it stays in the context.
    Layer.provideMerge(EnvelopesLive)
  )
  const docs = production ? Layer.empty : HttpApiScalar.layer(Api, { path: "/api/docs" })
  return Layer.mergeAll(api, docs, SiteRoutes)
}

/**
 * The whole server on one port: HTTP API, socket.io and the built site.
 * `server` is the Node server it listens with (tests read its address).
 */
export const makeServer = (config: ServerConfigShape, server: Server = createServer()) => {
  const http = HttpRouter.serve(routes(config.production)).pipe(
    Layer.provide(NodeHttpServer.layer(() => server, { port: config.port, host: config.host }))
  )
  // socket.io goes on after the API's listeners, so it can pass everything else through.
  const realtime = Layer.effectDiscard(Realtime.use((realtime) => realtime.attach(server))).pipe(
    Layer.provide(http)
  )
  // The services stay in the output, so tools and tests built on this layer can use them.
  return realtime.pipe(Layer.provideMerge(ServicesLive), Layer.provideMerge(ServerConfig.layer(config)))
}
