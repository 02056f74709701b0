import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { slugify } from "../../src/domain/sports.ts"
import type { Seeder } from "../seed/demo.ts"

/**
 * The demo catalogue: tables and slots of Ezugi, Evolution and SA Gaming as an
 * operator would list them (titles, categories, table and game ids), and the
 * three games of Khel Originals, listed first. A few entries carry a category
 * their provider does not use, so the lobby shows them under Other.
 */

interface Entry {
  readonly title: string
  readonly category: string
  readonly table?: string
  readonly game: string
}

const EZUGI_LIVE: ReadonlyArray<Entry> = [
  { title: "Andar Bahar", category: "Indian Games", table: "228000", game: "ezugi-andar-bahar" },
  { title: "Teen Patti 3 Card", category: "Indian Games", table: "227101", game: "ezugi-teen-patti-3-card" },
  { title: "Bet on Teen Patti", category: "Indian Games", table: "227100", game: "ezugi-bet-on-teen-patti" },
  { title: "Lucky 7", category: "Card Games", table: "228001", game: "ezugi-lucky-7" },
  { title: "32 Cards", category: "Card Games", table: "228002", game: "ezugi-32-cards" },
  { title: "Cricket War", category: "Card Games", table: "228003", game: "ezugi-cricket-war" },
  { title: "Dragon Tiger", category: "Dragon Tiger", table: "150", game: "ezugi-dragon-tiger" },
  { title: "Auto Roulette", category: "Roulette", table: "5001", game: "ezugi-auto-roulette" },
  { title: "Ultimate Roulette", category: "Roulette", table: "5051", game: "ezugi-ultimate-roulette" },
  { title: "Baccarat", category: "Baccarat", table: "100", game: "ezugi-baccarat" },
  { title: "No Commission Baccarat", category: "Baccarat", table: "170", game: "ezugi-no-commission-baccarat" },
  { title: "Blackjack Gold 1", category: "Blackjack", table: "201", game: "ezugi-blackjack-gold-1" },
  { title: "Unlimited Blackjack", category: "Blackjack", table: "51", game: "ezugi-unlimited-blackjack" },
  { title: "Sic Bo", category: "Dice Games", table: "224000", game: "ezugi-sic-bo" },
  { title: "Wheel of Dice", category: "Game Shows", table: "224100", game: "ezugi-wheel-of-dice" },
  // Ezugi lists no Poker category: this table shows under Other.
  { title: "Casino Hold'em", category: "Poker", table: "507000", game: "ezugi-casino-holdem" }
]

const EVOLUTION_LIVE: ReadonlyArray<Entry> = [
  { title: "Lightning Roulette", category: "Roulette", table: "LightningTable01", game: "evo-lightning-roulette" },
  { title: "Immersive Roulette", category: "Roulette", table: "7x0b1tgh7agmf6hv", game: "evo-immersive-roulette" },
  { title: "Speed Baccarat A", category: "Baccarat", table: "leqhceumaq6qfoug", game: "evo-speed-baccarat-a" },
  { title: "Lightning Baccarat", category: "Baccarat", table: "LightningBac0001", game: "evo-lightning-baccarat" },
  { title: "Infinite Blackjack", category: "Blackjack", table: "mrfykemt5slanyi5", game: "evo-infinite-blackjack" },
  { title: "Blackjack Classic 1", category: "Blackjack", table: "uwd2bl2khwcikjlz", game: "evo-blackjack-classic-1" },
  { title: "Lightning Dice", category: "Dice Games", table: "LightningDice001", game: "evo-lightning-dice" },
  { title: "Super Sic Bo", category: "Dice Games", table: "SuperSicBo000001", game: "evo-super-sic-bo" },
  { title: "Crazy Time", category: "Game Shows", table: "CrazyTime0000001", game: "evo-crazy-time" },
  { title: "Monopoly Live", category: "Game Shows", table: "Monopoly00000001", game: "evo-monopoly-live" },
  { title: "Dream Catcher", category: "Game Shows", table: "MOWDream00000001", game: "evo-dream-catcher" },
  { title: "Casino Hold'em", category: "Poker", table: "HoldemTable00001", game: "evo-casino-holdem" },
  { title: "Texas Hold'em Bonus Poker", category: "Poker", table: "TRPTable00000001", game: "evo-texas-holdem-bonus" },
  { title: "Football Studio", category: "Card Games", table: "TopCard000000001", game: "evo-football-studio" },
  { title: "Dragon Tiger", category: "Dragon Tiger", table: "DragonTiger00001", game: "evo-dragon-tiger" },
  // Not an Evolution category: listed under Other.
  { title: "Lightning Lotto", category: "Lottery", table: "LightningLotto01", game: "evo-lightning-lotto" }
]

const EVOLUTION_SLOTS: ReadonlyArray<Entry> = [
  { title: "Starburst", category: "Video Slots", game: "netent-starburst" },
  { title: "Gonzo's Quest", category: "Video Slots", game: "netent-gonzos-quest" },
  { title: "Dead or Alive 2", category: "Video Slots", game: "netent-dead-or-alive-2" },
  { title: "Twin Spin", category: "Classic Slots", game: "netent-twin-spin" },
  { title: "Dragon's Luck", category: "Classic Slots", game: "redtiger-dragons-luck" },
  { title: "Gonzo's Quest Megaways", category: "Megaways", game: "redtiger-gonzos-quest-megaways" },
  { title: "Bonanza Megaways", category: "Megaways", game: "btg-bonanza-megaways" },
  { title: "Piggy Riches Megaways", category: "Megaways", game: "redtiger-piggy-riches-megaways" },
  { title: "Mega Fortune", category: "Jackpots", game: "netent-mega-fortune" },
  { title: "Divine Fortune", category: "Jackpots", game: "netent-divine-fortune" }
]

const SA_LIVE: ReadonlyArray<Entry> = [
  { title: "Baccarat C01", category: "Baccarat", table: "C01", game: "sa-baccarat-c01" },
  { title: "Speed Baccarat", category: "Baccarat", table: "C05", game: "sa-speed-baccarat" },
  { title: "Squeeze Baccarat", category: "Baccarat", table: "C08", game: "sa-squeeze-baccarat" },
  { title: "Dragon Tiger", category: "Dragon Tiger", table: "D01", game: "sa-dragon-tiger" },
  { title: "Roulette", category: "Roulette", table: "R01", game: "sa-roulette" },
  { title: "Sic Bo", category: "Dice Games", table: "S01", game: "sa-sic-bo" },
  { title: "Fan Tan", category: "Fan Tan", table: "F01", game: "sa-fan-tan" },
  { title: "Blackjack", category: "Blackjack", table: "B01", game: "sa-blackjack" }
]

/** The built-in provider's games: their game_id is the game's code on its pages. */
const KHEL_LIVE: ReadonlyArray<Entry> = [
  { title: "Khel Dragon Tiger", category: "Dragon Tiger", table: "khel-dt-1", game: "dragon-tiger" },
  { title: "Khel Andar Bahar", category: "Indian Games", table: "khel-ab-1", game: "andar-bahar" }
]
const KHEL_SLOTS: ReadonlyArray<Entry> = [{ title: "Lucky Lotus", category: "Classic Slots", game: "lucky-lotus" }]

export const CATALOGUE: ReadonlyArray<{ provider: string; kind: "live" | "slot"; sort: number; entries: ReadonlyArray<Entry> }> = [
  { provider: "khel", kind: "live", sort: -10, entries: KHEL_LIVE },
  { provider: "khel", kind: "slot", sort: -10, entries: KHEL_SLOTS },
  { provider: "ezugi", kind: "live", sort: 0, entries: EZUGI_LIVE },
  { provider: "evolution", kind: "live", sort: 0, entries: EVOLUTION_LIVE },
  { provider: "evolution", kind: "slot", sort: 0, entries: EVOLUTION_SLOTS },
  { provider: "sa", kind: "live", sort: 0, entries: SA_LIVE }
]

export const casinoSeeder: Seeder = {
  name: "casino",
  run: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const group of CATALOGUE) {
        for (const entry of group.entries) {
          yield* sql`
            INSERT INTO casino_games (provider, kind, table_id, game_id, title, category, slug, sort)
            VALUES (${group.provider}, ${group.kind}, ${entry.table ?? ""}, ${entry.game}, ${entry.title}, ${entry.category},
                    ${slugify(entry.title)}, ${group.sort})
            ON CONFLICT DO NOTHING
          `
        }
      }
    })
}
