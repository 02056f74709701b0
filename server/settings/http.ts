import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { ok } from "../../src/schema/envelope.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Admission } from "../protection/Admission.ts"
import { webManifest } from "./manifest.ts"
import { Settings } from "./Settings.ts"

export const SettingsHandlers = HttpApiBuilder.group(Api, "settings", Effect.fn(function*(handlers) {
  const settings = yield* Settings
  const sessions = yield* Sessions
  const admission = yield* Admission

  /** Offers are for everyone but a signed-in player on a break or self-excluded (the client sends its token on every call). */
  const showsMarketing = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function*() {
      const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1]
      const user = token ? yield* sessions.authenticate(token) : undefined
      return user ? !(yield* admission.hidesMarketing(user.id)) : true
    }).pipe(Effect.orDie)

  return handlers.handleAll({
    appSettings: () => Effect.map(settings.site, (data) => ok(data)),
    allAppSettings: () => Effect.map(settings.all, (data) => ok(data)),
    advertisement: ({ request }) =>
      Effect.map(Effect.flatMap(showsMarketing(request), (marketing) => settings.banners({ marketing })), (data) => ok(data))
  })
}))

/**
 * `GET /manifest.webmanifest`, written from the site settings on each request
 * and revalidated on each use (`no-cache`): an operator's new title or colour
 * reaches the next install.
 */
export const ManifestRoute = HttpRouter.add("GET", "/manifest.webmanifest", Effect.gen(function*() {
  const settings = yield* Settings
  const site = yield* settings.site
  return HttpServerResponse.text(JSON.stringify(webManifest(site)), {
    contentType: "application/manifest+json",
    headers: { "cache-control": "no-cache" }
  })
}))
