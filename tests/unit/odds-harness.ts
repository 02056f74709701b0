import { Effect } from "effect"
import type { MarketBook } from "../../src/schema/betting.ts"
import type { Fixtures, OpenMarket } from "../../server/odds/Fixtures.ts"
import type { Lifecycle } from "../../server/odds/Lifecycle.ts"
import type { Draws } from "../../server/odds/Draws.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { makeSimulator } from "../../server/odds/Simulator.ts"

/** Seeds as the server makes them, from a secret of the test's own. */
export const testDraws = (secret = "test secret"): Pick<Draws["Service"], "seeds"> => ({
  seeds: (eventIds) => Effect.succeed(new Map(eventIds.map((id) => [id, seedFor(secret, id)])))
})

/**
 * A simulator over fixed fixtures, with a lifecycle that settles nothing, every
 * event watched, and the latest book it published of each market.
 */
export const simulatorHarness = (rows: ReadonlyArray<OpenMarket>, options: { readonly seed?: number; readonly watchers?: number; readonly secret?: string } = {}) => {
  const latest = new Map<string, MarketBook>()
  const fixtures = { openMarkets: Effect.succeed(rows), scheduleNext: () => Effect.void } satisfies Fixtures["Service"]
  const lifecycle = {
    startDue: () => Effect.succeed([]),
    finish: () => Effect.succeed(true),
    recover: () => Effect.succeed(0),
    settleFancy: () => Effect.void
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
  return { simulator, latest, contradictions: () => counted.contradictions?.() ?? 0 }
}

/** Three events as the database lists them: a cricket match, a football match and a race, each with its markets. */
export const fixtures = (startsAt: number, live: boolean): Array<OpenMarket> => {
  const rows: Array<OpenMarket> = []
  const add = (eventId: string, eventName: string, sportCode: string, markets: ReadonlyArray<{ name: string; type: OpenMarket["marketType"]; runners: ReadonlyArray<string> }>) => {
    for (const [sort, market] of markets.entries()) {
      rows.push({
        id: `${eventId}-${sort}`, externalId: `1.${eventId}${sort}`, name: market.name, marketType: market.type, status: "OPEN", sort,
        eventId, eventName, startsAt: new Date(startsAt), eventStatus: live ? "live" : "scheduled", leagueId: `l${sportCode}`, sportCode,
        runners: market.runners.map((name, i) => ({ selectionId: `${eventId}${sort}${i}`, name }))
      })
    }
  }
  add("c", "India v Australia", "4", [
    { name: "Match Odds", type: "EXCHANGE", runners: ["India", "Australia"] },
    { name: "Bookmaker", type: "BOOKMAKER", runners: ["India", "Australia"] },
    { name: "6 Over Runs I", type: "FANCY", runners: ["6 Over Runs I"] },
    { name: "10 Over Runs I", type: "FANCY", runners: ["10 Over Runs I"] },
    { name: "20 Over Runs I", type: "FANCY", runners: ["20 Over Runs I"] },
    { name: "Fall of 1st Wkt I", type: "FANCY", runners: ["Fall of 1st Wkt I"] }
  ])
  add("f", "Arsenal v Chelsea", "1", [
    { name: "Match Odds", type: "EXCHANGE", runners: ["Arsenal", "Chelsea", "The Draw"] },
    { name: "Bookmaker", type: "BOOKMAKER", runners: ["Arsenal", "Chelsea", "The Draw"] },
    { name: "Over/Under 2.5 Goals", type: "EXCHANGE", runners: ["Under 2.5 Goals", "Over 2.5 Goals"] }
  ])
  add("r", "Ascot R1", "7", [{ name: "Ascot R1 Win", type: "EXCHANGE", runners: ["A", "B", "C", "D", "E", "F"] }])
  return rows
}

