import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { CurrentStaff } from "../../src/schema/middleware.ts"
import { SiteSettings as SiteView } from "../../src/schema/settings.ts"
import { sqlDefects } from "../edge/defects.ts"
import { idempotent } from "../edge/guards.ts"
import { Settings } from "../settings/Settings.ts"
import { SiteSettings } from "./SiteSettings.ts"
import { Banners } from "./Banners.ts"
import { BonusRules as RulesView, DeskBanner } from "../../src/schema/desk/settings.ts"
import { BonusRules } from "./BonusRules.ts"
import { Schema } from "effect"
import { actorOf } from "./Staff.ts"

/** The player site's settings and the bonus rules on the desk (src/schema/desk/settings.ts); a save is idempotent under its key. */
export const DeskSettingsHandlers = HttpApiBuilder.group(Api, "deskSettings", Effect.fn(function*(handlers) {
  const settings = yield* Settings
  const site = yield* SiteSettings
  const rules = yield* BonusRules
  return handlers.handleAll(sqlDefects(handlers, {
    site: () => Effect.map(settings.site, (data) => ok(data)),
    saveSite: ({ payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, payload, SiteView, site.save(actorOf(me), payload)), (data) => ok(data, "Site settings saved: the player site shows them at its next load"))
      ),
    bonusRules: () => Effect.map(rules.current, (data) => ok(data)),
    saveBonusRules: ({ payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, payload, RulesView, rules.save(actorOf(me), payload)), (data) => ok(data, "Bonus rules saved: the next grant follows them"))
      )
  }))
}))

/** Home-page banners: upload and remove idempotent under their key; an order names every banner. */
export const DeskBannersHandlers = HttpApiBuilder.group(Api, "deskBanners", Effect.fn(function*(handlers) {
  const banners = yield* Banners
  return handlers.handleAll(sqlDefects(handlers, {
    list: () => Effect.map(banners.list, (list) => ok(list)),
    add: ({ payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(idempotent(request, me.id, payload, DeskBanner, banners.add(actorOf(me), payload)), (banner) => ok(banner, "Banner added"))),
    order: ({ payload }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(banners.order(actorOf(me), payload.ids), (list) => ok(list, "Banners ordered"))),
    remove: ({ params, request }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(idempotent(request, me.id, params, Schema.Array(DeskBanner), banners.remove(actorOf(me), params.id)), (list) => ok(list, "Banner removed")))
  }))
}))
