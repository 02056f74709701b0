import { Effect, Scope } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { checkEventBooks, claimOf } from "../../src/domain/eventBook.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import { type FeedChanges, makeBooks } from "../../server/odds/Books.ts"
import type { Fixtures, OpenMarket } from "../../server/odds/Fixtures.ts"
import type { Lifecycle } from "../../server/odds/Lifecycle.ts"
import { runSimulator } from "../../server/odds/runSimulator.ts"
import { makeSimulator } from "../../server/odds/Simulator.ts"
import { seedFor } from "../../server/odds/fair.ts"
import { matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { fixtures, simulatorHarness, testDraws } from "./odds-harness.ts"

const START = Date.UTC(2026, 0, 1, 12)

const book = (marketId: string, version: number, status: MarketBook["status"] = "OPEN", eventId = "e1"): MarketBook => ({
  marketId,
  eventId,
  marketType: "EXCHANGE",
  status,
  inPlay: false,
  runners: [{ selectionId: "a", back: [{ price: 2, size: 10 }], lay: [{ price: 2.02, size: 10 }] }],
  version
})

describe("the books a server serves", () => {
  it("keeps each market's newest book, its event's markets in order, and drops a closed one", () => {
    const books = makeBooks()
    const heard: Array<string> = []
    books.subscribe((update) => heard.push(`${update.market?.marketId}@${update.market?.version}`))
    books.apply({ markets: [{ book: book("m2", 1), sort: 2 }, { book: book("m1", 1), sort: 1 }], scores: [] })
    books.apply({ markets: [{ book: book("m1", 3), sort: 1 }], scores: [] })
    // A late, older book never rolls a price back.
    books.apply({ markets: [{ book: book("m1", 2), sort: 1 }], scores: [] })
    expect(books.book("m1")?.version).toBe(3)
    expect(books.eventOdds("e1").markets.map((m) => m.marketId)).toEqual(["m1", "m2"])
    books.apply({ markets: [{ book: book("m2", 2, "CLOSED"), sort: 2 }], scores: [] })
    expect(books.book("m2")).toBeUndefined()
    expect(books.eventOdds("e1").markets.map((m) => m.marketId)).toEqual(["m1"])
    expect(heard).toEqual(["m2@1", "m1@1", "m1@3", "m2@2"])
  })
})

/** A cricket match in play and its two markets, as the database would list them. */
const rows = (startsAt: number): Array<OpenMarket> => [
  { id: "mo", externalId: "1.1", name: "Match Odds", marketType: "EXCHANGE", status: "OPEN", sort: 1, eventId: "e1", eventName: "Mumbai v Chennai", startsAt: new Date(startsAt), eventStatus: "live", leagueId: "l1", sportCode: "4", runners: [{ selectionId: "a", name: "Mumbai" }, { selectionId: "b", name: "Chennai" }] },
  { id: "bm", externalId: "1.2", name: "Bookmaker", marketType: "BOOKMAKER", status: "OPEN", sort: 2, eventId: "e1", eventName: "Mumbai v Chennai", startsAt: new Date(startsAt), eventStatus: "live", leagueId: "l1", sportCode: "4", runners: [{ selectionId: "a", name: "Mumbai" }, { selectionId: "b", name: "Chennai" }] }
]

/** A simulator over fixed fixtures and a lifecycle that only records what it is asked. */
const harness = (options: { running: boolean; startsAt?: number; watchers?: number }) => {
  const published: Array<FeedChanges> = []
  const calls: Array<string> = []
  const fixtures = {
    openMarkets: Effect.succeed(rows(options.startsAt ?? START - 60_000)),
    scheduleNext: () => Effect.void,
    addLine: () => Effect.succeed(false)
  } satisfies Fixtures["Service"]
  const lifecycle = {
    startDue: (now: number) => Effect.sync(() => (calls.push(`startDue@${now - START}`), [])),
    finish: (event: { id: string }) =>
      Effect.sync(() => {
        // What clients were told before the event was handed to settlement.
        const closed = published.flatMap((p) => p.markets).filter((m) => m.book.status === "CLOSED").map((m) => m.book.marketId)
        calls.push(`finish ${event.id} after closing ${closed.join(",")}`)
        return true
      }),
    recover: () => Effect.succeed(0),
    settleEarly: () => Effect.void
  } satisfies Lifecycle["Service"]
  const simulator = makeSimulator({ fixtures, lifecycle, draws: testDraws() }, { running: options.running, updatesPerSecond: 10 }, {
    publish: (changes) => published.push(changes),
    catalogueChanged: () => calls.push("catalogue"),
    watchers: () => options.watchers ?? 0
  })
  return { simulator, published, calls }
}

const prices = (published: ReadonlyArray<FeedChanges>) => published.flatMap((p) => p.markets)

describe("the simulator", () => {
  it("moves prices only when a step runs, by the time that passed, where clients watch", async () => {
    const { simulator, published } = harness({ running: false, watchers: 1 })
    await Effect.runPromise(simulator.load(START))
    expect(prices(published)).toHaveLength(2)
    const versions = () => prices(published).reduce((latest, m) => latest.set(m.book.marketId, m.book.version), new Map<string, number>())
    const before = [...versions().values()].reduce((a, b) => a + b, 0)
    // One second at 10 updates a second for the watched event, plus 20 a second of background drift: 30 moves, each
    // a new book of one market (its sizes) or of both (the event's chances, which both show).
    for (let t = 20; t <= 1000; t += 20) simulator.tick(START + t)
    const moves = [...versions().values()].reduce((a, b) => a + b, 0) - before
    expect(moves).toBeGreaterThanOrEqual(29)
    expect(moves).toBeLessThanOrEqual(62)
    // The same second in two steps moves as much.
    const again = harness({ running: false, watchers: 1 })
    await Effect.runPromise(again.simulator.load(START))
    again.simulator.tick(START + 500)
    again.simulator.tick(START + 1000)
    const coarse = prices(again.published).reduce((latest, m) => latest.set(m.book.marketId, m.book.version), new Map<string, number>())
    expect([...coarse.values()].reduce((a, b) => a + b, 0) - 2).toBeGreaterThanOrEqual(29)
  })

  it("closes an event's markets before it hands the event to settlement, then loads what is left", async () => {
    const startsAt = START - matchDuration("4") - 1000
    const { simulator, calls, published } = harness({ running: false, startsAt })
    await Effect.runPromise(simulator.load(START))
    const result = await Effect.runPromise(simulator.lifecycle(START))
    expect(result.finished).toBe(1)
    expect(calls).toEqual(["startDue@0", "finish e1 after closing 1.1,1.2", "catalogue"])
    expect(prices(published).filter((m) => m.book.status === "CLOSED")).toHaveLength(2)
  })

  it("takes an operator's price, snapped to the ladder, and keeps it while the rest follows the model", async () => {
    const { simulator, published } = harness({ running: false, watchers: 1 })
    await Effect.runPromise(simulator.load(START))
    const set = await Effect.runPromise(simulator.setPrice({ marketId: "1.1", selectionId: "a", back: { price: 3.07, size: 50 } }, START))
    expect(set.runners[0]!.back.map((l) => l.price)).toEqual([3.05, 3, 2.98])
    for (let t = 20; t <= 5000; t += 20) simulator.tick(START + t)
    const books = (id: string) => prices(published).filter((m) => m.book.marketId === id).map((m) => m.book)
    expect(books("1.1").at(-1)!.version).toBeGreaterThan(set.version)
    for (const book of books("1.1").filter((b) => b.version >= set.version)) expect(book.runners[0]!.back).toEqual(set.runners[0]!.back)
    // The bookmaker follows the same chances, within the operator's price: together they are no arbitrage.
    const latest = ["1.1", "1.2"].map((id) => ({ claim: claimOf({ ...rows(START)[id === "1.1" ? 0 : 1]!, runners: rows(START)[0]!.runners! }), book: books(id).at(-1)! }))
    expect(checkEventBooks(latest).problems).toEqual([])
  })

  it("refuses an operator's price that would let a player win whatever happens, and changes nothing", async () => {
    const { simulator, published } = harness({ running: false, watchers: 1 })
    await Effect.runPromise(simulator.load(START))
    const before = prices(published).length
    // Chennai backed at 3.05 on the exchange and Mumbai at 2.5 on the bookmaker: 0.33 + 0.29 < 1.
    await Effect.runPromise(simulator.setPrice({ marketId: "1.1", selectionId: "b", back: { price: 3.05, size: 50 } }, START))
    const refused = await Effect.runPromise(Effect.flip(simulator.setPrice({ marketId: "1.2", selectionId: "a", back: { price: 150, size: 50 } }, START)))
    expect(refused).toMatchObject({ code: 422, tag: "PricesContradict" })
    expect(refused.message).toMatch(/^That price contradicts the event's other prices: .*A player could win whatever happens\.$/)
    expect(prices(published).slice(before).filter((m) => m.book.marketId === "1.2" && m.book.runners[0]!.back[0]?.price === 150)).toEqual([])
  })

  it("runs its steps from the clock: prices every 20 ms, the lifecycle at once and then every 5 s", async () => {
    const { simulator, calls, published } = harness({ running: true, watchers: 1 })
    await Effect.runPromise(Effect.gen(function*() {
      yield* simulator.load(START)
      yield* TestClock.setTime(START)
      const scope = yield* Scope.make()
      yield* runSimulator(simulator).pipe(Scope.provide(scope))
      yield* TestClock.adjust("1 second")
      const afterOneSecond = prices(published).length
      expect(afterOneSecond).toBeGreaterThan(2)
      yield* TestClock.adjust("9 seconds")
      expect(calls.filter((c) => c.startsWith("startDue"))).toEqual(["startDue@0", "startDue@5000", "startDue@10000"])
      yield* Scope.close(scope, Effect.void as never)
      const stopped = prices(published).length
      yield* TestClock.adjust("10 seconds")
      expect(prices(published).length).toBe(stopped)
    }).pipe(Effect.provide(TestClock.layer())))
  })

  it("does nothing by itself when it is off", async () => {
    const { simulator, calls, published } = harness({ running: false, watchers: 1 })
    await Effect.runPromise(Effect.gen(function*() {
      yield* simulator.load(START)
      const scope = yield* Scope.make()
      yield* runSimulator(simulator).pipe(Scope.provide(scope))
      yield* TestClock.adjust("1 minute")
      yield* Scope.close(scope, Effect.void as never)
    }).pipe(Effect.provide(TestClock.layer())))
    expect(prices(published)).toHaveLength(2)
    expect(calls).toEqual([])
  })
})

describe("a market whose result is already certain", () => {
  it("is suspended until it is settled (three goals in: over 2.5 goals), while the others trade on", async () => {
    const eventId = "f"
    // A football match with three goals by the 80th minute, found among seeds made from the tests' own secrets.
    const startsAt = START - 0.85 * matchDuration("1")
    const secret = Array.from({ length: 200 }, (_, i) => `secret ${i}`).find((s) =>
      (matchAt({ id: eventId, name: "Arsenal v Chelsea", sportCode: "1", startsAt, seed: seedFor(s, eventId) }, START)?.goals ?? 0) >= 3)!
    const rows = fixtures(startsAt, true).filter((row) => row.eventId === eventId)
    const harness = simulatorHarness(rows, { seed: 1, secret })
    await Effect.runPromise(harness.simulator.load(START))
    const status = (name: string) => harness.latest.get(rows.find((row) => row.name === name)!.externalId)?.status
    expect(status("Over/Under 2.5 Goals")).toBe("SUSPENDED")
    expect(status("Match Odds")).toBe("OPEN")
  })
})

describe("a market whose result is known before the end", () => {
  it("is closed and settled as soon as no play can change it: half-time after the break, a goals line once passed", async () => {
    const eventId = "f"
    const name = "Arsenal v Chelsea"
    // Twenty minutes into the second half, with at least one goal in the first and two in the match.
    const startsAt = START - 0.75 * matchDuration("1")
    const found = Array.from({ length: 300 }, (_, i) => `secret ${i}`).map((secret) => ({ secret, seed: seedFor(secret, eventId) })).find(({ seed }) => {
      const half = matchAt({ id: eventId, name, sportCode: "1", startsAt, seed }, startsAt + matchDuration("1") / 2)!
      const now = matchAt({ id: eventId, name, sportCode: "1", startsAt, seed }, START)!
      return half.home + half.away >= 1 && now.goals! >= 2 && now.goals! < 3
    })!
    const event = { id: eventId, name, sportCode: "1", startsAt, seed: found.seed }
    const half = matchAt(event, startsAt + matchDuration("1") / 2)!
    const rows = fixtures(startsAt, true).filter((row) => row.eventId === eventId)
    const harness = simulatorHarness(rows, { seed: 1, secret: found.secret })
    await Effect.runPromise(harness.simulator.load(START))
    await Effect.runPromise(harness.simulator.scores(START))
    const market = (market: string) => rows.find((row) => row.name === market)!
    const runner = (market: string, runner: string) => rows.find((row) => row.name === market)!.runners!.find((r) => r.name === runner)!.selectionId
    const atHalf = half.home > half.away ? "Arsenal" : half.away > half.home ? "Chelsea" : "The Draw"
    expect(harness.settled.get(market("Half Time").externalId)).toBe(runner("Half Time", atHalf))
    expect(harness.settled.get(market("Over/Under 0.5 Goals").externalId)).toBe(runner("Over/Under 0.5 Goals", "Over 0.5 Goals"))
    expect(harness.settled.get(market("Over/Under 1.5 Goals").externalId)).toBe(runner("Over/Under 1.5 Goals", "Over 1.5 Goals"))
    // Still to play for: the match, 2.5 goals and more.
    for (const open of ["Match Odds", "Bookmaker", "Over/Under 2.5 Goals", "Over/Under 4.5 Goals"]) {
      expect(harness.settled.has(market(open).externalId), open).toBe(false)
      expect(harness.latest.get(market(open).externalId)?.status, open).not.toBe("CLOSED")
    }
    expect(harness.latest.has(market("Half Time").externalId)).toBe(false)
  })
})
