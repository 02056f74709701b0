import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { CurrentStaff } from "../../src/schema/middleware.ts"
import { SiteSettings as SiteView } from "../../src/schema/settings.ts"
import { sqlDefect } from "../edge/defects.ts"
import { idempotent } from "../edge/guards.ts"
import { Settings } from "../settings/Settings.ts"
import { SiteSettings } from "./SiteSettings.ts"
import { actorOf } from "./Staff.ts"

/** The player site's settings on the desk (src/schema/desk/settings.ts); a save is idempotent under its key. */
export const DeskSettingsHandlers = HttpApiBuilder.group(Api, "deskSettings", Effect.fn(function*(handlers) {
  const settings = yield* Settings
  const site = yield* SiteSettings
  return handlers.handleAll({
    site: () => Effect.map(settings.site, (data) => ok(data)),
    saveSite: ({ payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(sqlDefect(idempotent(request, me.id, payload, SiteView, site.save(actorOf(me), payload))), (data) => ok(data, "Site settings saved: the player site shows them at its next load"))
      )
  })
}))
