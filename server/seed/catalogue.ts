import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { slugify } from "../../src/domain/sports.ts"
import type { MarketType } from "../../src/schema/sports.ts"

/**
 * The demo catalogue: seven sports with real-looking leagues and fixtures,
 * spread over in play, later today, tomorrow and the coming days, relative to
 * the moment the database is seeded.
 */

interface MarketSpec {
  readonly name: string
  readonly type: MarketType
  readonly runners: ReadonlyArray<string>
}

interface SportSpec {
  readonly name: string
  readonly code: string
  readonly racing?: boolean
  readonly leagues: ReadonlyArray<{
    readonly name: string
    readonly country?: readonly [code: string, name: string]
    readonly fixtures: ReadonlyArray<string>
  }>
  readonly markets: (home: string, away: string, fixture: string) => ReadonlyArray<MarketSpec>
}

const matchOdds = (home: string, away: string, draw = false): MarketSpec => ({
  name: "Match Odds",
  type: "EXCHANGE",
  runners: draw ? [home, away, "The Draw"] : [home, away]
})

const bookmaker = (home: string, away: string, draw = false): MarketSpec => ({
  name: "Bookmaker",
  type: "BOOKMAKER",
  runners: draw ? [home, away, "The Draw"] : [home, away]
})

const fancy = (name: string): MarketSpec => ({ name, type: "FANCY", runners: [name] })

/** An over/under line on the match's total ("Goals", "Points"). */
const overUnder = (line: number, unit: string): MarketSpec => ({
  name: `Over/Under ${line} ${unit}`,
  type: "EXCHANGE",
  runners: [`Under ${line} ${unit}`, `Over ${line} ${unit}`]
})

/** Whether a side's innings ends on an odd or an even total. */
const oddEven = (side: string): MarketSpec => ({ name: `Innings Runs Odd/Even ${side}`, type: "EXCHANGE", runners: ["Odd", "Even"] })

/** A Yes/No question on the match (claimOf's NAMED_SPACES). */
const question = (name: string): MarketSpec => ({ name, type: "EXCHANGE", runners: ["Yes", "No"] })

const short = (team: string) => team.replace(/[^A-Z]/g, "").slice(0, 3) || team.slice(0, 3).toUpperCase()

const HORSES = [
  "Silver Monsoon", "Desert Comet", "Royal Tiffin", "Midnight Raga", "Golden Chai", "Storm Sultan",
  "Velvet Tempo", "Lucky Lotus", "Crimson Arrow", "Quiet Thunder", "Saffron Star", "Harbour Lights"
]

const race = (fixture: string, field: number, offset: number): MarketSpec => ({
  name: `${fixture} Win`,
  type: "EXCHANGE",
  runners: Array.from({ length: field }, (_, i) => HORSES[(i + offset) % HORSES.length]!)
})

const traps = (fixture: string): MarketSpec => ({
  name: `${fixture} Win`,
  type: "EXCHANGE",
  runners: Array.from({ length: 6 }, (_, i) => `Trap ${i + 1}`)
})

export const DEMO_SPORTS: ReadonlyArray<SportSpec> = [
  {
    name: "Cricket",
    code: "4",
    leagues: [
      {
        name: "Indian Premier League",
        fixtures: [
          "Mumbai Indians v Chennai Super Kings",
          "Royal Challengers Bengaluru v Kolkata Knight Riders",
          "Delhi Capitals v Rajasthan Royals",
          "Sunrisers Hyderabad v Punjab Kings",
          "Gujarat Titans v Lucknow Super Giants"
        ]
      },
      {
        name: "International Twenty20",
        fixtures: ["India v Australia", "England v Pakistan", "South Africa v New Zealand", "Sri Lanka v Bangladesh"]
      },
      { name: "Big Bash League", fixtures: ["Sydney Sixers v Perth Scorchers", "Melbourne Stars v Brisbane Heat"] }
    ],
    markets: (home, away) => [
      matchOdds(home, away),
      bookmaker(home, away),
      question("Tied Match"),
      // Each innings' lines; the second's wait, suspended, until it begins (server/odds/inPlayLines.ts).
      ...[home, away].flatMap((side) => [
        ...[6, 10, 15, 20].map((overs) => fancy(`${overs} Over Runs ${short(side)}`)),
        fancy(`Fall of 1st Wkt ${short(side)}`),
        fancy(`Only 1st Over Runs ${short(side)}`),
        fancy(`Batter 1 Runs ${short(side)}`),
        fancy(`Batter 2 Runs ${short(side)}`)
      ]),
      oddEven(short(home)),
      oddEven(short(away))
    ]
  },
  {
    name: "Football",
    code: "1",
    leagues: [
      {
        name: "English Premier League",
        fixtures: ["Arsenal v Chelsea", "Liverpool v Manchester City", "Tottenham v Newcastle", "Aston Villa v Brighton"]
      },
      { name: "Spanish La Liga", fixtures: ["Real Madrid v Barcelona", "Atletico Madrid v Sevilla", "Valencia v Real Betis"] },
      { name: "Indian Super League", fixtures: ["Mohun Bagan v East Bengal", "Bengaluru FC v Mumbai City", "Kerala Blasters v FC Goa"] }
    ],
    markets: (home, away) => [
      matchOdds(home, away, true),
      bookmaker(home, away, true),
      ...[0.5, 1.5, 2.5, 3.5, 4.5].map((line) => overUnder(line, "Goals")),
      question("Both Teams To Score"),
      { name: "Half Time", type: "EXCHANGE", runners: [home, away, "The Draw"] }
    ]
  },
  {
    name: "Tennis",
    code: "2",
    leagues: [
      { name: "ATP Finals", fixtures: ["Sinner v Alcaraz", "Djokovic v Zverev", "Medvedev v Rublev"] },
      { name: "WTA Finals", fixtures: ["Sabalenka v Swiatek", "Gauff v Rybakina"] }
    ],
    markets: (home, away) => [matchOdds(home, away), { name: "Set 1 Winner", type: "EXCHANGE", runners: [home, away] }]
  },
  {
    name: "Kabaddi",
    code: "99994",
    leagues: [
      { name: "Pro Kabaddi League", fixtures: ["Patna Pirates v Bengal Warriorz", "Jaipur Pink Panthers v U Mumba", "Puneri Paltan v Tamil Thalaivas"] }
    ],
    // The line near the expected total (sports.ts: about 0.58 points a side a minute over 40 minutes).
    markets: (home, away) => [matchOdds(home, away), bookmaker(home, away), overUnder(46.5, "Points")]
  },
  {
    name: "Basketball",
    code: "7522",
    leagues: [
      { name: "NBA", fixtures: ["Los Angeles Lakers v Boston Celtics", "Golden State Warriors v Denver Nuggets", "Miami Heat v New York Knicks"] }
    ],
    // About 2.5 points a side a minute over 48 minutes.
    markets: (home, away) => [matchOdds(home, away), overUnder(239.5, "Points")]
  },
  {
    name: "Horse Racing",
    code: "7",
    racing: true,
    leagues: [
      { name: "Ascot", country: ["GB", "United Kingdom"], fixtures: ["Ascot R1", "Ascot R2", "Ascot R3"] },
      { name: "Leopardstown", country: ["IE", "Ireland"], fixtures: ["Leopardstown R1", "Leopardstown R2"] },
      { name: "Flemington", country: ["AU", "Australia"], fixtures: ["Flemington R1", "Flemington R2"] },
      { name: "Mahalaxmi", country: ["IN", "India"], fixtures: ["Mahalaxmi R1", "Mahalaxmi R2"] }
    ],
    markets: (_home, _away, fixture) => [race(fixture, 8, fixture.length)]
  },
  {
    name: "Greyhound Racing",
    code: "4339",
    racing: true,
    leagues: [
      { name: "Romford", country: ["GB", "United Kingdom"], fixtures: ["Romford R1", "Romford R2", "Romford R3"] },
      { name: "Sandown Park", country: ["AU", "Australia"], fixtures: ["Sandown Park R1", "Sandown Park R2"] }
    ],
    markets: (_home, _away, fixture) => [traps(fixture)]
  }
]

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * When fixture `index` of a league starts: the first is in play, then later
 * today, tomorrow and the days after, so every date label appears.
 */
export const demoStart = (now: Date, leagueIndex: number, index: number) => {
  const inPlay = index === 0 && leagueIndex % 2 === 0
  if (inPlay) return { startsAt: new Date(now.getTime() - 40 * MINUTE), live: true }
  const slot = [2 * HOUR + 30 * MINUTE, 26 * HOUR, 50 * HOUR, 5 * HOUR, 74 * HOUR][index % 5]!
  return { startsAt: new Date(now.getTime() + slot + leagueIndex * 17 * MINUTE), live: false }
}

let externalCounter = 0
const nextExternal = (prefix: number) => `${prefix}${String(++externalCounter).padStart(6, "0")}`

/** Inserts the demo catalogue. Run inside the seeding transaction. */
export const seedCatalogue = (now: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    externalCounter = 0
    for (const sport of DEMO_SPORTS) {
      // Cast, not decoded: ids only, used as keys.
      const [sportRow] = yield* sql<{ id: string }>`
        INSERT INTO sports (name, slug, code, is_racing)
        VALUES (${sport.name}, ${slugify(sport.name)}, ${sport.code}, ${sport.racing === true})
        RETURNING id
      `
      for (const [leagueIndex, league] of sport.leagues.entries()) {
        // Cast, not decoded: ids only, used as keys.
        const [leagueRow] = yield* sql<{ id: string }>`
          INSERT INTO leagues (sport_id, name, slug, country_code, country_name)
          VALUES (${sportRow!.id}, ${league.name}, ${slugify(league.name)}, ${league.country?.[0] ?? null}, ${league.country?.[1] ?? null})
          RETURNING id
        `
        for (const [index, fixture] of league.fixtures.entries()) {
          const { startsAt, live } = demoStart(now, leagueIndex, index)
          const [home = fixture, away = ""] = fixture.split(" v ")
          // Cast, not decoded: ids only, used as keys.
          const [eventRow] = yield* sql<{ id: string }>`
            INSERT INTO events (external_id, league_id, name, slug, starts_at, status)
            VALUES (${nextExternal(3)}, ${leagueRow!.id}, ${fixture}, ${slugify(fixture)}, ${startsAt}, ${live ? "live" : "scheduled"})
            RETURNING id
          `
          for (const [sort, market] of sport.markets(home, away, fixture).entries()) {
            // Cast, not decoded: ids only, used as keys.
            const [marketRow] = yield* sql<{ id: string }>`
              INSERT INTO markets (external_id, event_id, name, market_type, starts_at, sort)
              VALUES (${`1.${nextExternal(2)}`}, ${eventRow!.id}, ${market.name}, ${market.type}, ${startsAt}, ${sort})
              RETURNING id
            `
            for (const [runnerSort, runner] of market.runners.entries()) {
              yield* sql`
                INSERT INTO runners (selection_id, market_id, name, sort)
                VALUES (${nextExternal(4)}, ${marketRow!.id}, ${runner}, ${runnerSort})
              `
            }
          }
        }
      }
    }
  })
