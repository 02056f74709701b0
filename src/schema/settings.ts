import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Region } from "./region.ts"
import { Schema } from "effect"

/** The site's colour scheme, kept in local storage (SPEC section 3; dark by default). */
export const Theme = Schema.Literals(["light", "dark"])
export type Theme = typeof Theme.Type

/** Images are data URLs (base64), as the operator uploads them. */
export const SiteSettings = Schema.Struct({
  siteTitle: Schema.String,
  color: Schema.String,
  faviconImg: Schema.String,
  logoImg: Schema.String
})
export type SiteSettings = typeof SiteSettings.Type

export const Contacts = Schema.Struct({
  helpline: Schema.String,
  whatsapp: Schema.String,
  email: Schema.String,
  supportChat: Schema.String
})
export type Contacts = typeof Contacts.Type

export const Social = Schema.Struct({ name: Schema.String, url: Schema.String })
export type Social = typeof Social.Type

/**
 * The operator's compliance switches as every visitor may know them: whether
 * real-money deposits are open (closed: the site runs on demo credit, and the
 * header says so) and which states are not served (sign-up refuses them).
 */
export const PublicCompliance = Schema.Struct({ depositsOpen: Schema.Boolean, blockedRegions: Schema.Array(Region) })
export type PublicCompliance = typeof PublicCompliance.Type

export const AllAppSettings = Schema.Struct({
  settings: SiteSettings,
  contacts: Contacts,
  socials: Schema.Array(Social),
  compliance: PublicCompliance
})
export type AllAppSettings = typeof AllAppSettings.Type

/** A home-page banner: shown in `order`, the image as a data URL. */
export const Banner = Schema.Struct({
  _id: Schema.String,
  order: Schema.Int,
  title: Schema.String,
  baseImage: Schema.String
})
export type Banner = typeof Banner.Type

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  database: Schema.Literals(["pglite", "postgres"]),
  uptimeSeconds: Schema.Finite
})
export type Health = typeof Health.Type

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("appSettings", "/app-settings", { success: Envelope(SiteSettings) }),
    HttpApiEndpoint.get("allAppSettings", "/get-all-app-settings", { success: Envelope(AllAppSettings) }),
    HttpApiEndpoint.get("advertisement", "/advertisement", { success: Envelope(Schema.Array(Banner)) })
  )
  .prefix("/api/v1")
{}

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health", { success: Envelope(Health) }))
  .prefix("/api/v1")
{}
