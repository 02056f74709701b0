import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { Settings } from "./Settings.ts"

export const SettingsHandlers = HttpApiBuilder.group(Api, "settings", Effect.fn(function*(handlers) {
  const settings = yield* Settings
  return handlers.handleAll({
    appSettings: () => Effect.map(settings.site, (data) => ok(data)),
    allAppSettings: () => Effect.map(settings.all, (data) => ok(data)),
    advertisement: () => Effect.map(settings.banners, (data) => ok(data))
  })
}))
