import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AllAppSettings, Banner, Contacts, SiteSettings, Social } from "../../src/schema/settings.ts"
import { COMPLIANCE_KEY, publicSwitches, switchesOf } from "../protection/Compliance.ts"

/** The documents staff write: the bonus rules are server/bonus/rules.ts's. */
type SettingsKey = "site" | "contacts" | "socials" | "bonus_rules"

const decodeSite = Schema.decodeUnknownEffect(SiteSettings)
const decodeContacts = Schema.decodeUnknownEffect(Contacts)
const decodeSocials = Schema.decodeUnknownEffect(Schema.Array(Social))

/** Site settings, contacts, socials and banners, as the operator configured them. */
export class Settings extends Context.Service<Settings, {
  readonly site: Effect.Effect<SiteSettings>
  readonly all: Effect.Effect<AllAppSettings>
  /** The active banners; `marketing: false` leaves out offers and promotions (for players on a break or self-excluded). */
  banners(options?: { readonly marketing: boolean }): Effect.Effect<ReadonlyArray<Banner>>
  put(key: SettingsKey, value: unknown): Effect.Effect<void>
}>()("khel/Settings") {
  static readonly layer = Layer.effect(
    Settings,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const read = (key: string) =>
        // Cast, not decoded: `value` is decoded by its schema below.
        sql<{ value: unknown }>`SELECT value FROM app_settings WHERE key = ${key}`.pipe(
          Effect.map((rows) => rows[0]?.value ?? {})
        )

      const site = read("site").pipe(Effect.flatMap(decodeSite), Effect.orDie, Effect.withSpan("Settings.site"))

      const all = Effect.all({
        settings: site,
        contacts: read("contacts").pipe(Effect.flatMap(decodeContacts), Effect.orDie),
        socials: read("socials").pipe(Effect.flatMap(decodeSocials), Effect.orDie),
        compliance: read(COMPLIANCE_KEY).pipe(Effect.map((value) => publicSwitches(switchesOf(value))), Effect.orDie)
      }).pipe(Effect.withSpan("Settings.all"))

      // Cast, not decoded: the row goes straight back out unchanged.
      const banners = (options: { readonly marketing: boolean } = { marketing: true }) => sql<{ id: string; sortOrder: number; title: string; image: string }>`
        SELECT id, sort_order, title, image FROM banners WHERE active AND (${options.marketing} OR NOT marketing) ORDER BY sort_order, id
      `.pipe(
        Effect.map((rows) => rows.map((row) => ({ _id: row.id, order: row.sortOrder, title: row.title, baseImage: row.image }))),
        Effect.orDie,
        Effect.withSpan("Settings.banners")
      )

      const put = Effect.fn("Settings.put")(function*(key: SettingsKey, value: unknown) {
        yield* sql`
          INSERT INTO app_settings (key, value) VALUES (${key}, ${JSON.stringify(value)}::jsonb)
          ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
        `.pipe(Effect.orDie)
      })

      return Settings.of({ site, all, banners, put })
    })
  )
}
