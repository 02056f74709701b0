import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, OpenApi } from "effect/http-api"
import { ApiError, Envelope } from "./envelope.ts"
import { AllAppSettings, Banner, Health, SiteSettings } from "./settings.ts"
import { SportsData } from "./sports.ts"

/**
 * Renders every `ApiError`, bad payload and defect as a `FailureEnvelope`.
 * Declared on the whole API so every handler may fail with `ApiError`.
 */
export class Envelopes extends HttpApiMiddleware.Service<Envelopes>()("khel/Envelopes", {
  error: ApiError
}) {}

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("appSettings", "/app-settings", { success: Envelope(SiteSettings) }),
    HttpApiEndpoint.get("allAppSettings", "/get-all-app-settings", { success: Envelope(AllAppSettings) }),
    HttpApiEndpoint.get("advertisement", "/advertisement", { success: Envelope(Schema.Array(Banner)) })
  )
  .prefix("/api/v1")
{}

export class SportsApi extends HttpApiGroup.make("sports")
  .add(HttpApiEndpoint.get("sportsData", "/get-sports-data", { success: Envelope(SportsData) }))
  .prefix("/api/v1")
{}

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health", { success: Envelope(Health) }))
  .prefix("/api/v1")
{}

export class Api extends HttpApi.make("khel")
  .add(SettingsApi)
  .add(SportsApi)
  .add(SystemApi)
  .middleware(Envelopes)
  .annotateMerge(OpenApi.annotations({ title: "Khel API", version: "1" }))
{}
