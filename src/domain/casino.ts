import { slugify } from "./sports.ts"

/**
 * Casino categories and the lobby rules shared by the server (which maps the
 * catalogue) and the client (which draws the category strip).
 */

/** The category every game the mapping does not know falls under (SPEC section 9). */
export const OTHER = "Other"

/** The first entry of the category strip: every game of the lobby. */
export const ALL_CATEGORY = "All Category"

/** Live-table categories by provider code. Ezugi and Evolution exactly as SPEC section 9. */
export const LIVE_CATEGORIES: Readonly<Record<string, ReadonlyArray<string>>> = {
  ezugi: ["Card Games", "Roulette", "Baccarat", "Blackjack", "Dragon Tiger", "Dice Games", "Indian Games", "Game Shows", "Other"],
  evolution: ["Baccarat", "Blackjack", "Roulette", "Dice Games", "Card Games", "Game Shows", "Poker", "Dragon Tiger"],
  sa: ["Baccarat", "Dragon Tiger", "Roulette", "Dice Games", "Other"],
  khel: ["Dragon Tiger", "Indian Games", "Other"]
}

/** Slot categories, whoever the provider. */
export const SLOT_CATEGORIES: ReadonlyArray<string> = ["Video Slots", "Classic Slots", "Megaways", "Jackpots", "Other"]

/** Where the strip puts each category when several providers share a lobby. */
const DISPLAY_ORDER: ReadonlyArray<string> = [
  "Indian Games", "Dragon Tiger", "Roulette", "Baccarat", "Blackjack", "Card Games", "Dice Games", "Game Shows", "Poker",
  ...SLOT_CATEGORIES.filter((c) => c !== OTHER),
  OTHER
]

export type GameKind = "live" | "slot"

/** The category a game is listed under: its own when its provider has it, otherwise Other. */
export const categoryOf = (provider: string, kind: GameKind, category: string) => {
  const known = kind === "slot" ? SLOT_CATEGORIES : LIVE_CATEGORIES[provider] ?? []
  const match = known.find((c) => c.toLowerCase() === category.trim().toLowerCase())
  return match ?? OTHER
}

/** The categories of a lobby's games in display order, after All Category. */
export const categoryStrip = (games: ReadonlyArray<{ readonly game_category: string }>) => {
  const present = new Set(games.map((game) => game.game_category))
  const ordered = DISPLAY_ORDER.filter((c) => present.has(c))
  const rest = [...present].filter((c) => !DISPLAY_ORDER.includes(c)).sort()
  return [ALL_CATEGORY, ...ordered, ...rest]
}

export const inCategory = <G extends { readonly game_category: string }>(games: ReadonlyArray<G>, category: string) =>
  category === ALL_CATEGORY ? games : games.filter((game) => game.game_category === category)

/** `/images/{provider}/{category}/{game}.png` (SPEC section 2), all slugs. */
export const gameImagePath = (provider: string, category: string, gameSlug: string) =>
  `/images/${provider}/${slugify(category)}/${gameSlug}.png`

/** Artwork size (SPEC section 9, image slots). */
export const GAME_IMAGE = { width: 320, height: 200 } as const

/** The three lobbies and how each launches a game (SPEC section 7). */
export type Lobby = "live" | "slots" | "sa"

export const LOBBY_PATH: Readonly<Record<Lobby, string>> = { live: "/live-casino", slots: "/slots", sa: "/sa-casino" }

/** Live tables launch by table_id, slots by game_id, SA Gaming by game_id on its own path. */
export const launchIdOf = (lobby: Lobby, game: { readonly table_id: string; readonly game_id: string }) =>
  lobby === "live" && game.table_id !== "" ? game.table_id : game.game_id

/** Messages of SPEC section 8 for a launch the client refuses. */
export const LAUNCH_NOTICES = {
  loginRequired: { message: "Please Login to Play", subMessage: "Hold up! You need to log in to play!" },
  unavailable: { message: "Game Not Available", subMessage: "This game is currently unavailable. Check back soon!" }
} as const

/** Slider autoplay of SPEC section 9. */
export const TOP_CASINO_AUTOPLAY_MS = 2500
export const RIGHT_BAR_CASINO_AUTOPLAY_MS = 3000

/** An IST calendar day, "YYYY-MM-DD", for casino-bets-by-date. */
export const isDay = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}
