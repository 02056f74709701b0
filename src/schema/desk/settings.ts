import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { MAX_BANNER_CHARS, MAX_BANNER_TITLE, MAX_FAVICON_CHARS, MAX_LOGO_CHARS, MAX_TITLE } from "../../domain/siteSettings.ts"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { SiteSettings } from "../settings.ts"
import { Schema } from "effect"
import { Id, Text } from "./common.ts"
import { MAX_BONUS_TITLE, MAX_CODE } from "../../domain/bonusRules.ts"
import { Rupees } from "../user.ts"

/** Site settings as staff set them (src/domain/siteSettings.ts has the rules): the player site reads them at its next load. */
export const SitePayload = Schema.Struct({
  siteTitle: Text(MAX_TITLE * 2),
  color: Text(20),
  logoImg: Text(MAX_LOGO_CHARS),
  faviconImg: Text(MAX_FAVICON_CHARS)
})
export type SitePayload = typeof SitePayload.Type

/** The welcome offer and the referral reward as staff set them (src/domain/bonusRules.ts has the rules); the next grant follows them. */
const Terms = { percent: Schema.Finite, cap: Rupees, wagerTimes: Schema.Finite }
export const BonusRules = Schema.Struct({
  welcome: Schema.Struct({ code: Text(MAX_CODE * 2), title: Text(MAX_BONUS_TITLE * 2), ...Terms }),
  referral: Schema.Struct(Terms)
})
export type BonusRules = typeof BonusRules.Type

/** The player site's settings and the bonus rules (`settings.manage`); deposit accounts and protection settings are src/schema/admin.ts's and src/schema/protection.ts's. */
export class DeskSettingsApi extends HttpApiGroup.make("deskSettings")
  .add(
    HttpApiEndpoint.get("site", "/site-settings", { success: Envelope(SiteSettings) }).annotate(Requires, "settings.manage"),
    HttpApiEndpoint.put("saveSite", "/site-settings", { payload: SitePayload, success: Envelope(SiteSettings) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput"]),
    HttpApiEndpoint.get("bonusRules", "/bonus-rules", { success: Envelope(BonusRules) }).annotate(Requires, "settings.manage"),
    HttpApiEndpoint.put("saveBonusRules", "/bonus-rules", { payload: BonusRules, success: Envelope(BonusRules) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput"])
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}

/** A home-page banner as the desk manages it (the player site's `/advertisement` serves the active ones, in order). */
export const DeskBanner = Schema.Struct({
  id: Schema.String,
  order: Schema.Int,
  title: Schema.String,
  image: Schema.String,
  /** An offer or promotion: not shown to players on a break or self-excluded. */
  marketing: Schema.Boolean
})
export type DeskBanner = typeof DeskBanner.Type

export const BannerPayload = Schema.Struct({ title: Text(MAX_BANNER_TITLE * 2), image: Text(MAX_BANNER_CHARS), marketing: Schema.Boolean })
export type BannerPayload = typeof BannerPayload.Type

/** Every banner's id, in the order to show them. */
export const BannerOrder = Schema.Struct({ ids: Schema.Array(Text(64)).check(Schema.isMaxLength(100)) })
export type BannerOrder = typeof BannerOrder.Type

/** Home-page banners (`settings.manage`): upload, order, remove. */
export class DeskBannersApi extends HttpApiGroup.make("deskBanners")
  .add(
    HttpApiEndpoint.get("list", "/banners", { success: Envelope(Schema.Array(DeskBanner)) }).annotate(Requires, "settings.manage"),
    HttpApiEndpoint.post("add", "/banners", { payload: BannerPayload, success: Envelope(DeskBanner) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput"]),
    HttpApiEndpoint.put("order", "/banners/order", { payload: BannerOrder, success: Envelope(Schema.Array(DeskBanner)) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput", "Conflict"]),
    HttpApiEndpoint.delete("remove", "/banners/:id", { params: Id, success: Envelope(Schema.Array(DeskBanner)) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["NotFound"])
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
