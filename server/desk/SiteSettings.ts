import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { siteOf, siteProblem } from "../../src/domain/siteSettings.ts"
import type { SitePayload } from "../../src/schema/desk/settings.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { SiteSettings as Site } from "../../src/schema/settings.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Settings } from "../settings/Settings.ts"
import { type Actor, Audit } from "./Audit.ts"

/**
 * The player site's settings as staff change them on the desk: checked by
 * src/domain/siteSettings.ts, written with their audit line (the settings
 * before and after) in one transaction, and told to every open desk. The
 * player site reads them at its next load.
 */
export class SiteSettings extends Context.Service<SiteSettings, {
  save(actor: Actor, payload: SitePayload): Effect.Effect<Site, ApiError | SqlError.SqlError>
}>()("khel/SiteSettings") {
  static readonly layer = Layer.effect(
    SiteSettings,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings
      const audit = yield* Audit
      const realtime = yield* Realtime

      const save = Effect.fn("SiteSettings.save")(function*(actor: Actor, payload: SitePayload) {
        const problem = siteProblem(payload)
        if (problem) return yield* refuse("InvalidInput", problem)
        const next = siteOf(payload)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* settings.site
          yield* settings.put("site", next)
          yield* audit.record(actor, { action: "settings.site", subject: { kind: "settings", id: "site" }, before, after: next })
          yield* sql.afterCommit(realtime.notifyDesk("settings", "site"))
          return next
        }))
      })

      return SiteSettings.of({ save })
    })
  )
}
