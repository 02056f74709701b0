import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { categoryOf, type GameKind, gameImagePath, isDay, type Lobby, LOBBY_PATH } from "../../src/domain/casino.ts"
import { toRupees } from "../../src/domain/money.ts"
import { slugify } from "../../src/domain/sports.ts"
import {
  type AdminCasinoGame,
  type CasinoBet,
  type CasinoGame,
  type CasinoGamePayload,
  type CasinoGameUpdate,
  type CasinoProvider,
  type CasinoProviderUpdate,
  CasinoSettings
} from "../../src/schema/casino.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { isOperatorRole, type Role, Roles } from "../../src/schema/user.ts"
import { decodeRows, iso, Paise } from "../db/rows.ts"
import { Admission } from "../protection/Admission.ts"
import { randomHex, sha256 } from "./signature.ts"

/** How long a launch token stays good for debits (credits and rollbacks never expire). */
export const SESSION_HOURS = 6

export interface GameRow {
  readonly id: string
  readonly provider: string
  readonly providerName: string
  readonly kind: GameKind
  readonly tableId: string
  readonly gameId: string
  readonly title: string
  readonly category: string
  readonly slug: string
  readonly sort: number
  readonly enabled: boolean
  readonly providerActive: boolean
  readonly launchUrl: string | null
}

const listed = (row: GameRow): CasinoGame => {
  const category = categoryOf(row.provider, row.kind, row.category)
  return {
    _id: row.id,
    table_id: row.tableId,
    game_id: row.gameId,
    provider_name: row.providerName,
    provider: row.provider,
    game_category: category,
    game_images: gameImagePath(row.provider, category, row.slug),
    title: row.title
  }
}

const forAdmin = (row: GameRow): AdminCasinoGame => ({ ...listed(row), kind: row.kind, category: row.category, sort: row.sort, enabled: row.enabled })

const decodeSettings = Schema.decodeUnknownOption(CasinoSettings)

/** A round on the player's casino statement: its amounts are money, decoded. */
const RoundRow = Schema.Struct({
  id: Schema.String,
  roundId: Schema.String,
  provider: Schema.String,
  providerName: Schema.String,
  gameId: Schema.String,
  title: Schema.String,
  stake: Paise,
  win: Paise,
  refunded: Paise,
  status: Schema.Literals(["open", "settled", "cancelled"]),
  createdAt: Schema.Date,
  settledAt: Schema.NullOr(Schema.Date)
})
/** The secret that signs a provider's wallet calls: it decides whether money moves. */
const SecretRow = Schema.Struct({ walletSecret: Schema.NullOr(Schema.String) })
const DEFAULT_SETTINGS: CasinoSettings = { creditPlayersAllowed: true }

const fillTemplate = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? encodeURIComponent(values[name]!) : whole))

/** A signed-in account as the launch sees it. */
export interface Player {
  readonly id: string
  readonly role: Role
  /** The site session launching a game: the game session ends with it. */
  readonly sessionId: string
}

/**
 * The casino catalogue, launches and the operator's casino switches. Money
 * never moves here: that is the seamless wallet's job.
 */
export class Casino extends Context.Service<Casino, {
  lobby(lobby: Lobby): Effect.Effect<ReadonlyArray<CasinoGame>, SqlError.SqlError>
  /** The URL to open, or "" when the game cannot be played now (SPEC: 'Game Not Available'). */
  launch(player: Player, lobby: "live" | "sa", id: string): Effect.Effect<string, ApiError | SqlError.SqlError>
  betsByDate(userId: string, provider: string, date: string): Effect.Effect<ReadonlyArray<CasinoBet>, ApiError | SqlError.SqlError>
  /** The game an artwork path names, if it is in the catalogue. */
  artwork(provider: string, categorySlug: string, slug: string): Effect.Effect<GameRow | undefined, SqlError.SqlError>
  readonly settings: Effect.Effect<CasinoSettings, SqlError.SqlError>
  updateSettings(settings: CasinoSettings): Effect.Effect<CasinoSettings, SqlError.SqlError>
  readonly adminGames: Effect.Effect<ReadonlyArray<AdminCasinoGame>, SqlError.SqlError>
  addGame(payload: CasinoGamePayload): Effect.Effect<AdminCasinoGame, ApiError | SqlError.SqlError>
  updateGame(id: string, update: CasinoGameUpdate): Effect.Effect<AdminCasinoGame, ApiError | SqlError.SqlError>
  readonly providers: Effect.Effect<ReadonlyArray<CasinoProvider>, SqlError.SqlError>
  updateProvider(code: string, update: CasinoProviderUpdate): Effect.Effect<CasinoProvider, ApiError | SqlError.SqlError>
  /** The secret an active provider signs wallet calls with. */
  walletSecret(code: string): Effect.Effect<string | undefined, SqlError.SqlError>
}>()("khel/Casino") {
  static readonly layer = Layer.effect(
    Casino,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const admission = yield* Admission

      // The built-in provider gets its wallet secret on first start; partners get theirs from an operator.
      yield* sql`UPDATE casino_providers SET wallet_secret = ${randomHex()} WHERE code = 'khel' AND wallet_secret IS NULL`.pipe(Effect.orDie)

      // Cast, not decoded: listed as it is; `launch` reads only its flags and URL, no money.
      const selectGames = (where: Statement.Fragment) => sql<GameRow>`
        SELECT g.id, g.provider, p.name AS provider_name, g.kind, g.table_id, g.game_id, g.title, g.category, g.slug, g.sort, g.enabled,
               p.active AS provider_active, p.launch_url
          FROM casino_games g JOIN casino_providers p ON p.code = g.provider
         WHERE ${where}
         ORDER BY g.sort, g.title, g.id
      `

      const lobby = Effect.fn("Casino.lobby")(function*(which: Lobby) {
        const rows = yield* (which === "sa"
          ? selectGames(sql`g.enabled AND p.active AND g.provider = 'sa'`)
          : selectGames(sql`g.enabled AND p.active AND g.provider <> 'sa' AND g.kind = ${which === "slots" ? "slot" : "live"}`))
        return rows.map(listed)
      })

      // Cast, not decoded: `value` is decoded by its schema below.
      const settings = sql<{ value: unknown }>`SELECT value FROM app_settings WHERE key = 'casino'`.pipe(
        Effect.map((rows) => {
          const decoded = decodeSettings(rows[0]?.value)
          return decoded._tag === "Some" ? decoded.value : DEFAULT_SETTINGS
        })
      )

      const updateSettings = Effect.fn("Casino.updateSettings")(function*(next: CasinoSettings) {
        yield* sql`
          INSERT INTO app_settings (key, value) VALUES ('casino', ${JSON.stringify(next)}::jsonb)
          ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
        `
        return next
      })

      const launch = Effect.fn("Casino.launch")(function*(player: Player, which: "live" | "sa", id: string) {
        if (isOperatorRole(player.role)) return yield* refuse("Forbidden", "Casino games are for player accounts.")
        if (player.role === Roles.CREDIT_PLAYER && !(yield* settings).creditPlayersAllowed) {
          return yield* refuse("Forbidden", "Casino games are not available on credit accounts.")
        }
        yield* admission.admitPlay(player.id)
        // Live tables are named by table_id, slots by game_id; SA Gaming by game_id on its own path.
        const rows = yield* (which === "sa"
          ? selectGames(sql`g.provider = 'sa' AND (g.game_id = ${id} OR (g.table_id = ${id} AND g.table_id <> ''))`)
          : selectGames(sql`g.provider <> 'sa' AND ((g.table_id = ${id} AND g.table_id <> '') OR g.game_id = ${id})`))
        const game = rows.find((row) => row.tableId === id) ?? rows[0]
        if (!game) return yield* refuse("NotFound", "There is no such game.")
        if (!game.enabled || !game.providerActive || !game.launchUrl) return ""
        const token = randomHex(24)
        yield* sql`
          INSERT INTO casino_sessions (token_hash, user_id, session_id, provider, game_id, expires_at)
          VALUES (${sha256(token)}, ${player.id}, ${player.sessionId}, ${game.provider}, ${game.id}, now() + ${`${SESSION_HOURS} hours`}::interval)
        `
        const lobbyPath = game.provider === "sa" ? LOBBY_PATH.sa : game.kind === "slot" ? LOBBY_PATH.slots : LOBBY_PATH.live
        return fillTemplate(game.launchUrl, { table_id: game.tableId, game_id: game.gameId, token, lobby: lobbyPath })
      })

      const betsByDate = Effect.fn("Casino.betsByDate")(function*(userId: string, provider: string, date: string) {
        if (!isDay(date)) return yield* refuse("InvalidInput", "date must be a day as YYYY-MM-DD.")
        if (provider !== "all") {
          const known = yield* sql`SELECT 1 FROM casino_providers WHERE code = ${provider}`
          if (known.length === 0) return yield* refuse("InvalidInput", `There is no casino provider '${provider}'.`)
        }
        // The day runs midnight to midnight in India (UTC+05:30).
        const start = new Date(`${date}T00:00:00+05:30`)
        const end = new Date(start.getTime() + 24 * 3600_000)
        const rows = yield* sql`
          SELECT r.id, r.round_id, r.provider, p.name AS provider_name, g.game_id, g.title, r.stake, r.win, r.refunded, r.status, r.created_at, r.settled_at
            FROM casino_rounds r
            JOIN casino_games g ON g.id = r.game_id
            JOIN casino_providers p ON p.code = r.provider
           WHERE r.user_id = ${userId}
             AND (${provider} = 'all' OR r.provider = ${provider})
             AND r.created_at >= ${start} AND r.created_at < ${end}
           ORDER BY r.created_at DESC, r.id
           LIMIT 500
        `.pipe(decodeRows(RoundRow))
        return rows.map((row): CasinoBet => ({
          _id: row.id,
          roundId: row.roundId,
          provider: row.provider,
          provider_name: row.providerName,
          game_id: row.gameId,
          title: row.title,
          stake: toRupees(row.stake),
          win: toRupees(row.win),
          refunded: toRupees(row.refunded),
          profitLoss: toRupees(Number(row.win) + Number(row.refunded) - Number(row.stake)),
          status: row.status,
          createdAt: iso(row.createdAt)!,
          settledAt: iso(row.settledAt)
        }))
      })

      const artwork = Effect.fn("Casino.artwork")(function*(provider: string, categorySlug: string, slug: string) {
        const rows = yield* selectGames(sql`g.provider = ${provider} AND g.slug = ${slug}`)
        const game = rows[0]
        if (!game || slugify(categoryOf(game.provider, game.kind, game.category)) !== categorySlug) return undefined
        return game
      })

      const adminGames = selectGames(sql`true`).pipe(Effect.map((rows) => rows.map(forAdmin)))

      const gameById = (id: string) => selectGames(sql`g.id = ${id}`).pipe(Effect.map((rows) => rows[0]))

      const checkIds = Effect.fn("Casino.checkIds")(function*(provider: string, kind: GameKind, tableId: string, gameId: string, except: string | null) {
        if (kind === "live" && provider !== "sa" && tableId === "") return yield* refuse("InvalidInput", "A live table needs its table_id.")
        // Cast, not decoded: ids only, used as keys.
        const clash = yield* sql<{ id: string }>`
          SELECT id FROM casino_games
           WHERE provider = ${provider} AND id IS DISTINCT FROM ${except}
             AND (game_id = ${gameId} OR (${tableId} <> '' AND table_id = ${tableId}))
        `
        if (clash.length > 0) return yield* refuse("Conflict", "Another game of this provider already has that table_id or game_id.")
      })

      const freeSlug = Effect.fn("Casino.freeSlug")(function*(provider: string, title: string, except: string | null) {
        const base = slugify(title) || "game"
        for (let n = 1; ; n++) {
          const slug = n === 1 ? base : `${base}-${n}`
          const taken = yield* sql`SELECT 1 FROM casino_games WHERE provider = ${provider} AND slug = ${slug} AND id IS DISTINCT FROM ${except}`
          if (taken.length === 0) return slug
        }
      })

      const addGame = Effect.fn("Casino.addGame")(function*(payload: CasinoGamePayload) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const provider = yield* sql`SELECT 1 FROM casino_providers WHERE code = ${payload.provider}`
          if (provider.length === 0) return yield* refuse("InvalidInput", `There is no casino provider '${payload.provider}'.`)
          const tableId = payload.table_id?.trim() ?? ""
          const gameId = payload.game_id.trim()
          const title = payload.title.trim()
          if (!gameId || !title) return yield* refuse("InvalidInput", "A game needs a game_id and a title.")
          yield* checkIds(payload.provider, payload.kind, tableId, gameId, null)
          const slug = yield* freeSlug(payload.provider, title, null)
          // Cast, not decoded: ids only, used as keys.
          const [row] = yield* sql<{ id: string }>`
            INSERT INTO casino_games (provider, kind, table_id, game_id, title, category, slug, sort, enabled)
            VALUES (${payload.provider}, ${payload.kind}, ${tableId}, ${gameId}, ${title}, ${payload.category.trim()}, ${slug},
                    ${payload.sort ?? 0}, ${payload.enabled ?? true})
            RETURNING id
          `
          return forAdmin((yield* gameById(row!.id))!)
        }))
      })

      const updateGame = Effect.fn("Casino.updateGame")(function*(id: string, update: CasinoGameUpdate) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* gameById(id)
          if (!current) return yield* refuse("NotFound", "There is no such game.")
          const tableId = update.table_id?.trim() ?? current.tableId
          const gameId = update.game_id?.trim() ?? current.gameId
          const title = update.title?.trim() ?? current.title
          if (!gameId || !title) return yield* refuse("InvalidInput", "A game needs a game_id and a title.")
          yield* checkIds(current.provider, current.kind, tableId, gameId, id)
          const slug = title === current.title ? current.slug : yield* freeSlug(current.provider, title, id)
          yield* sql`
            UPDATE casino_games
               SET table_id = ${tableId}, game_id = ${gameId}, title = ${title}, slug = ${slug},
                   category = ${update.category?.trim() ?? current.category}, sort = ${update.sort ?? current.sort},
                   enabled = ${update.enabled ?? current.enabled}, updated_at = now()
             WHERE id = ${id}
          `
          return forAdmin((yield* gameById(id))!)
        }))
      })

      // Cast, not decoded: the row goes straight back out unchanged.
      const providerRows = sql<{ code: string; name: string; active: boolean; launchUrl: string | null; hasWalletSecret: boolean }>`
        SELECT code, name, active, launch_url, wallet_secret IS NOT NULL AS has_wallet_secret FROM casino_providers ORDER BY name
      `
      const providers = providerRows.pipe(Effect.map((rows) => rows.map((row): CasinoProvider => ({ ...row }))))

      const updateProvider = Effect.fn("Casino.updateProvider")(function*(code: string, update: CasinoProviderUpdate) {
        const launchUrl = update.launchUrl === undefined ? undefined : update.launchUrl?.trim() || null
        if (launchUrl && !/^(https:\/\/|\/)[^\s]*$/.test(launchUrl)) {
          return yield* refuse("InvalidInput", "launchUrl must be an https:// URL or a path on this site.")
        }
        const secret = update.rotateSecret ? randomHex() : undefined
        const rows = yield* sql`
          UPDATE casino_providers
             SET active = coalesce(${update.active ?? null}, active),
                 launch_url = CASE WHEN ${launchUrl !== undefined} THEN ${launchUrl ?? null} ELSE launch_url END,
                 wallet_secret = coalesce(${secret ?? null}, wallet_secret)
           WHERE code = ${code}
           RETURNING code
        `
        if (rows.length === 0) return yield* refuse("NotFound", `There is no casino provider '${code}'.`)
        const all = yield* providers
        const provider = all.find((p) => p.code === code)!
        return secret ? { ...provider, walletSecret: secret } : provider
      })

      const walletSecret = (code: string) =>
        sql`SELECT wallet_secret FROM casino_providers WHERE code = ${code} AND active`.pipe(
          decodeRows(SecretRow),
          Effect.map((rows) => rows[0]?.walletSecret ?? undefined)
        )

      return Casino.of({
        lobby,
        launch,
        betsByDate,
        artwork,
        settings,
        updateSettings,
        adminGames,
        addGame,
        updateGame,
        providers,
        updateProvider,
        walletSecret
      })
    })
  )
}
