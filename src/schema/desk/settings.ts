import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { MAX_FAVICON_CHARS, MAX_LOGO_CHARS, MAX_TITLE } from "../../domain/siteSettings.ts"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { SiteSettings } from "../settings.ts"
import { Schema } from "effect"
import { Text } from "./common.ts"

/** Site settings as staff set them (src/domain/siteSettings.ts has the rules): the player site reads them at its next load. */
export const SitePayload = Schema.Struct({
  siteTitle: Text(MAX_TITLE * 2),
  color: Text(20),
  logoImg: Text(MAX_LOGO_CHARS),
  faviconImg: Text(MAX_FAVICON_CHARS)
})
export type SitePayload = typeof SitePayload.Type

/** The player site's settings (`settings.manage`); deposit accounts and protection settings are src/schema/admin.ts's and src/schema/protection.ts's. */
export class DeskSettingsApi extends HttpApiGroup.make("deskSettings")
  .add(
    HttpApiEndpoint.get("site", "/site-settings", { success: Envelope(SiteSettings) }).annotate(Requires, "settings.manage"),
    HttpApiEndpoint.put("saveSite", "/site-settings", { payload: SitePayload, success: Envelope(SiteSettings) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput"])
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
