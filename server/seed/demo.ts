import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Passwords } from "../identity/Passwords.ts"
import type { Users } from "../identity/Users.ts"
import type { Ledger } from "../ledger/Ledger.ts"
import { depositAccounts } from "../payments/seed.ts"
import { casinoSeeder } from "../casino/catalogue.ts"
import { soonRaces } from "../odds/seed.ts"
import { accounts, staff } from "./accounts.ts"
import { seedCatalogue } from "./catalogue.ts"
import { bannerDataUrl, faviconDataUrl, logoDataUrl } from "./images.ts"

/** What seeders may use: the database and the services that keep its rules (the ledger above all). */
export type SeedServices = SqlClient.SqlClient | Users | Passwords | Ledger

/** One named piece of demo data; each runs once per database. */
export interface Seeder {
  readonly name: string
  readonly run: (now: Date) => Effect.Effect<void, unknown, SeedServices>
}

const BRAND = "#f5b301"

const settings: Seeder = {
  name: "settings",
  run: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const put = (key: string, value: unknown) =>
        sql`INSERT INTO app_settings (key, value) VALUES (${key}, ${JSON.stringify(value)}::jsonb) ON CONFLICT (key) DO NOTHING`
      yield* put("site", { siteTitle: "Khel - Sports Exchange & Live Casino", color: BRAND, logoImg: logoDataUrl(BRAND), faviconImg: faviconDataUrl(BRAND) })
      yield* put("contacts", {
        helpline: "+91 80000 12345",
        whatsapp: "https://wa.me/918000012345",
        email: "support@khel.example",
        supportChat: "https://wa.me/918000012346"
      })
      yield* put("socials", [
        { name: "Instagram", url: "https://instagram.com/khel" },
        { name: "Telegram", url: "https://t.me/khel" },
        { name: "X", url: "https://x.com/khel" },
        { name: "YouTube", url: "https://youtube.com/@khel" }
      ])
    })
}

const banners: Seeder = {
  name: "banners",
  run: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const slides = [
        [2, "Live cricket, live odds", "Back and lay every ball of the IPL", "#0f766e", "#134e4a"],
        [1, "100% welcome bonus", "Double your first deposit up to ₹10,000", "#b45309", "#7c2d12"],
        [3, "Live casino tables", "Andar Bahar, Dragon Tiger, Roulette and more", "#7c3aed", "#312e81"],
        [4, "Refer a friend", "Earn a bonus on every friend who plays", "#be123c", "#4c0519"]
      ] as const
      for (const [order, title, subtitle, from, to] of slides) {
        const image = yield* Effect.promise(() => bannerDataUrl(title, subtitle, from, to))
        yield* sql`INSERT INTO banners (sort_order, title, image) VALUES (${order}, ${title}, ${image})`
      }
    })
}

const catalogue: Seeder = { name: "catalogue", run: seedCatalogue }

/** Demo data in the order it must be loaded; later capabilities append theirs. */
export const seeders: Array<Seeder> = [settings, banners, catalogue, accounts, staff, depositAccounts, casinoSeeder, soonRaces]

/** Loads every seeder this database has not had yet, each in its own transaction. */
export const seedDemo = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS demo_seed (name text PRIMARY KEY, seeded_at timestamptz NOT NULL DEFAULT now())`
  const done: Array<string> = []
  for (const seeder of seeders) {
    const ran = yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(4242002)`
      const seen = yield* sql`SELECT 1 FROM demo_seed WHERE name = ${seeder.name}`
      if (seen.length > 0) return false
      yield* seeder.run(new Date())
      yield* sql`INSERT INTO demo_seed (name) VALUES (${seeder.name})`
      return true
    }))
    if (ran) done.push(seeder.name)
  }
  if (done.length > 0) yield* Effect.logInfo("demo data loaded", { seeders: done })
}).pipe(Effect.orDie, Effect.withSpan("seedDemo"))
