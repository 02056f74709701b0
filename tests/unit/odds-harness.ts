import { Effect } from "effect"
import type { MarketBook } from "../../src/schema/betting.ts"
import type { Fixtures, OpenMarket } from "../../server/odds/Fixtures.ts"
import type { Lifecycle } from "../../server/odds/Lifecycle.ts"
import type { Draws } from "../../server/odds/Draws.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { makeSimulator } from "../../server/odds/Simulator.ts"
import { rng, type Rng } from "../../server/odds/simulation.ts"
import { type Played, SPORTS } from "../../server/odds/sports.ts"
import { DEMO_SPORTS } from "../../server/seed/catalogue.ts"

/** Seeds as the server makes them, from a secret of the test's own. */
export const testDraws = (secret = "test secret"): Pick<Draws["Service"], "seeds"> => ({
  seeds: (eventIds) => Effect.succeed(new Map(eventIds.map((id) => [id, seedFor(secret, id)])))
})

/**
 * A simulator over fixed fixtures, with a lifecycle that settles nothing (it
 * lists what it was asked to settle early), every event watched, and the
 * latest book it published of each market.
 */
export const simulatorHarness = (rows: ReadonlyArray<OpenMarket>, options: { readonly seed?: number; readonly watchers?: number; readonly secret?: string } = {}) => {
  const latest = new Map<string, MarketBook>()
  const settled = new Map<string, string>()
  /** Every early settlement asked for, in order (a market settled twice shows twice). */
  const settlements: Array<{ readonly externalId: string; readonly result: string; readonly now: number }> = []
  let now = 0
  // Lines play opens join the rows, as the database would list them.
  const listed = [...rows]
  const opened: Array<{ readonly externalId: string; readonly name: string; readonly now: number }> = []
  const fixtures = {
    openMarkets: Effect.sync(() => [...listed]),
    scheduleNext: () => Effect.void,
    addLine: (eventId: string, name: string, sort: number, at: number) =>
      Effect.sync(() => {
        const like = listed.find((row) => row.eventId === eventId)
        if (!like || listed.some((row) => row.eventId === eventId && row.name === name)) return false
        const externalId = `1.${eventId}.${name}`
        opened.push({ externalId, name, now: at })
        listed.push({ ...like, id: externalId, externalId, name, marketType: "FANCY", status: "OPEN", sort, runners: [{ selectionId: `${externalId}.0`, name }] })
        return true
      })
  } satisfies Fixtures["Service"]
  const lifecycle = {
    startDue: () => Effect.succeed([]),
    finish: () => Effect.succeed(true),
    recover: () => Effect.succeed(0),
    settleEarly: (externalId: string, result: string) =>
      Effect.sync(() => {
        settled.set(externalId, result)
        settlements.push({ externalId, result, now })
        // A settled market is listed no more.
        const at = listed.findIndex((row) => row.externalId === externalId)
        if (at >= 0) listed.splice(at, 1)
      })
  } satisfies Lifecycle["Service"]
  const simulator = makeSimulator({ fixtures, lifecycle, draws: testDraws(options.secret) }, { running: false, updatesPerSecond: 20, ...(options.seed === undefined ? {} : { seed: options.seed }) }, {
    publish: (changes) => {
      for (const { book } of changes.markets) {
        if (book.status === "CLOSED") latest.delete(book.marketId)
        else latest.set(book.marketId, book)
      }
    },
    catalogueChanged: () => undefined,
    watchers: () => options.watchers ?? 1
  })
  const counted = simulator as { contradictions?: () => number }
  /** One scores step at `at`, its settlements stamped with it. */
  const scoresAt = (at: number) => Effect.suspend(() => ((now = at), simulator.scores(at)))
  return { simulator, latest, settled, settlements, scoresAt, listed, opened, contradictions: () => counted.contradictions?.() ?? 0 }
}

/** One event of each sport as the database lists them, with the demo catalogue's markets (and a race). */
export const fixtures = (startsAt: number, live: boolean): Array<OpenMarket> => {
  const rows: Array<OpenMarket> = []
  const add = (eventId: string, eventName: string, sportCode: string) => {
    const [home = eventName, away = ""] = eventName.split(" v ")
    const markets = DEMO_SPORTS.find((sport) => sport.code === sportCode)!.markets(home, away, eventName)
    for (const [sort, market] of markets.entries()) {
      rows.push({
        id: `${eventId}-${sort}`, externalId: `1.${eventId}${sort}`, name: market.name, marketType: market.type, status: "OPEN", sort,
        eventId, eventName, startsAt: new Date(startsAt), eventStatus: live ? "live" : "scheduled", leagueId: `l${sportCode}`, sportCode,
        runners: market.runners.map((name, i) => ({ selectionId: `${eventId}${sort}${i}`, name }))
      })
    }
  }
  add("c", "India v Australia", "4")
  add("f", "Arsenal v Chelsea", "1")
  add("t", "Sinner v Alcaraz", "2")
  add("k", "Patna Pirates v Bengal Warriorz", "99994")
  add("b", "Miami Heat v New York Knicks", "7522")
  add("r", "Ascot R1", "7")
  return rows
}

/** Draws whose first few are given (the sides' strengths), the rest from a fast generator. */
export const given = (first: ReadonlyArray<number>, seed: number): Rng => {
  const rest = rng(seed)
  let i = 0
  return () => (i < first.length ? first[i++]! : rest())
}

/** How often `happens` over `count` matches of fixed strengths, and the 4-standard-error band of a chance. */
export const frequency = (sport: string, strengths: ReadonlyArray<number>, count: number, happens: (played: Played) => boolean) => {
  let n = 0
  for (let i = 0; i < count; i++) if (happens(SPORTS[sport]!(given(strengths, i + 1), "Home v Away", "e"))) n++
  return { rate: n / count, band: 4 * Math.sqrt(0.25 / count) }
}
