import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { bannerProblem, orderProblem } from "../../src/domain/siteSettings.ts"
import type { BannerPayload, DeskBanner } from "../../src/schema/desk/settings.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows } from "../db/rows.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Actor, Audit } from "./Audit.ts"

const BannerRow = Schema.Struct({ id: Schema.String, order: Schema.Int, title: Schema.String, image: Schema.String, marketing: Schema.Boolean })

/** How the audit shows a banner: its image only by size (the data URL itself is in the table). */
const brief = (banner: DeskBanner) => ({ id: banner.id, order: banner.order, title: banner.title, marketing: banner.marketing, imageChars: banner.image.length })

/**
 * The home page's banners as staff manage them on the desk: upload, order,
 * remove. Each change is audited in its own transaction and told to every
 * open desk; the player site's `/advertisement` serves the active ones.
 */
export class Banners extends Context.Service<Banners, {
  readonly list: Effect.Effect<ReadonlyArray<DeskBanner>, SqlError.SqlError>
  add(actor: Actor, payload: BannerPayload): Effect.Effect<DeskBanner, ApiError | SqlError.SqlError>
  order(actor: Actor, ids: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<DeskBanner>, ApiError | SqlError.SqlError>
  remove(actor: Actor, id: string): Effect.Effect<ReadonlyArray<DeskBanner>, ApiError | SqlError.SqlError>
}>()("khel/Banners") {
  static readonly layer = Layer.effect(
    Banners,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* Audit
      const realtime = yield* Realtime

      // Removed banners are deleted; `active` stays for banners turned off by hand in the database.
      const list = sql`SELECT id, sort_order AS order, title, image, marketing FROM banners WHERE active ORDER BY sort_order, id`.pipe(decodeRows(BannerRow), Effect.withSpan("Banners.list"))
      const locked = sql`SELECT id FROM banners WHERE active ORDER BY sort_order, id FOR UPDATE`.pipe(Effect.andThen(list))
      const told = sql.afterCommit(realtime.notifyDesk("settings", "banners"))

      const add = Effect.fn("Banners.add")(function*(actor: Actor, payload: BannerPayload) {
        const problem = bannerProblem(payload)
        if (problem) return yield* refuse("InvalidInput", problem)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* locked
          const [added] = yield* sql`
            INSERT INTO banners (sort_order, title, image, marketing)
            VALUES (${(before[before.length - 1]?.order ?? 0) + 1}, ${payload.title.trim()}, ${payload.image}, ${payload.marketing})
            RETURNING id, sort_order AS order, title, image, marketing
          `.pipe(decodeRows(BannerRow))
          yield* audit.record(actor, { action: "banner.add", subject: { kind: "banner", id: added!.id }, after: brief(added!) })
          yield* told
          return added!
        }))
      })

      const order = Effect.fn("Banners.order")(function*(actor: Actor, ids: ReadonlyArray<string>) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* locked
          const problem = orderProblem(before.map((banner) => banner.id), ids)
          if (problem) return yield* refuse("Conflict", problem)
          for (const [at, id] of ids.entries()) yield* sql`UPDATE banners SET sort_order = ${at + 1} WHERE id = ${id}`
          const after = yield* list
          yield* audit.record(actor, { action: "banner.order", subject: { kind: "settings", id: "banners" }, before: before.map((banner) => banner.id), after: after.map((banner) => banner.id) })
          yield* told
          return after
        }))
      })

      const remove = Effect.fn("Banners.remove")(function*(actor: Actor, id: string) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = (yield* locked).find((banner) => banner.id === id)
          if (!before) return yield* refuse("NotFound", "There is no such banner.")
          yield* sql`DELETE FROM banners WHERE id = ${id}`
          yield* audit.record(actor, { action: "banner.remove", subject: { kind: "banner", id }, before: brief(before) })
          yield* told
          return yield* list
        }))
      })

      return Banners.of({ list, add, order, remove })
    })
  )
}
