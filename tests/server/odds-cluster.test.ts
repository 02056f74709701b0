import { Effect } from "effect"
import { io, type Socket } from "socket.io-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BookStore } from "../../server/odds/BookStore.ts"
import { Simulation } from "../../server/odds/layer.ts"
import { balances, bet, catalogue, eventsOf, expectLedgerClean, fund, marketOf, setPrice } from "./betting-support.ts"
import { loginAs, request, signUpPlayer, startServer, tempDir, type TestServer } from "./helpers.ts"
import { freshDatabase } from "./payments-support.ts"
import { scrape, valueOf } from "../prometheus.ts"

/**
 * Several servers on one PostgreSQL share one source of prices: one server
 * leads and runs the simulator, every server serves the books it stored, and
 * bets on any server are checked against the same book. The simulator's
 * clock is off: the test moves prices with explicit steps and waits for real
 * conditions (a server has read the store), never for time to pass.
 */
process.env.ODDS_SIMULATOR = "off"

interface Book {
  marketId: string
  version: number
  status: string
  runners: Array<{ selectionId: string; back: Array<{ price: number }>; lay: Array<{ price: number }> }>
}

const eventOdds = async (server: TestServer, eventId: string) =>
  (await request(server.url, `/api/v1/event-odds?event_id=${eventId}`)).body.data as { markets: Array<Book> }

const leads = (server: TestServer) =>
  server.run(Effect.gen(function*() {
    return (yield* (yield* Simulation).current) !== undefined
  }))

/** Moves prices on the leader: `seconds` of ticks at once, as the clock would. */
const tick = (server: TestServer, seconds: number) =>
  server.run(Effect.gen(function*() {
    const simulator = (yield* (yield* Simulation).current)!
    const start = Date.now()
    for (let t = 20; t <= seconds * 1000; t += 20) simulator.tick(start + t)
  }))

const connect = (url: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, { transports: ["websocket"], reconnection: false })
    socket.on("connect", () => resolve(socket))
    socket.on("connect_error", reject)
  })

describe.runIf(process.env.DATABASE_URL)("one source of odds for several servers", () => {
  let database: { url: string; drop: () => Promise<unknown> }
  // Held here, not by useServer: a test stops one of the two servers.
  let a: TestServer
  let b: TestServer
  const stopped = new Set<TestServer>()
  let admin = ""
  let eventId = ""
  let market: { marketId: string; runners: Array<{ selectionId: string }> }
  const sockets: Array<Socket> = []

  beforeAll(async () => {
    // The test owns the database: a server stopping half-way through must not take it with it.
    database = await freshDatabase()
    a = await startServer({ databaseUrl: database.url, dataDir: tempDir("odds-a"), serverId: "odds-a" })
    b = await startServer({ databaseUrl: database.url, dataDir: tempDir("odds-b"), seedDemo: false, serverId: "odds-b" })
    admin = (await loginAs(a, "admin")).token
    const event = eventsOf(await catalogue(a), "football", false)[0]!
    eventId = event._id
    market = marketOf(event, "EXCHANGE")
  })

  afterAll(async () => {
    for (const socket of sockets) socket.close()
    for (const server of [b, a]) if (server && !stopped.has(server)) await server.close()
    await database?.drop()
  })

  it("has one leader, and every server serves the books it stored", async () => {
    expect([await leads(a), await leads(b)]).toEqual([true, false])
    // Nobody watches the event, so only the background moves (a few a second, over every market) reach it: the
    // leader moves on until one of its markets has moved, however many steps the random draw takes.
    await expect.poll(async () => {
      await tick(a, 1)
      return (await eventOdds(a, eventId)).markets.some((m) => m.version > 1)
    }, { timeout: 30_000, interval: 100 }).toBe(true)
    // b reads what a stored as soon as a says so (through the socket.io adapter), or within 2 s at the latest.
    await expect.poll(async () => {
      const [onA, onB] = await Promise.all([eventOdds(a, eventId), eventOdds(b, eventId)])
      return JSON.stringify(onB.markets) === JSON.stringify(onA.markets)
    }, { timeout: 30_000, interval: 100 }).toBe(true)
  })

  it("sends the leader's prices to clients of every server, in their event's room", async () => {
    const socket = await connect(b.url)
    sockets.push(socket)
    const snapshot = new Promise<{ markets: Array<Book> }>((resolve) => socket.once("odds.snapshot", resolve))
    socket.emit("odds.watch", eventId)
    const first = await snapshot
    const before = first.markets.find((m) => m.marketId === market.marketId)!.version
    const heard: Array<Book> = []
    socket.on("odds", (batch: { markets: Array<Book> }, ack: () => void) => {
      heard.push(...batch.markets)
      ack()
    })
    // b tells the leader its client watches the event: the leader spends its updates there.
    await expect.poll(async () => {
      await tick(a, 1)
      return heard.some((book) => book.marketId === market.marketId && book.version > before)
    }, { timeout: 30_000, interval: 200 }).toBe(true)
    // b's metrics: the batches it sent, timed from the leader's write; b follows, a leads since it took over.
    const metrics = await scrape(b.metricsUrl)
    expect(valueOf(metrics, "khel_odds_batches_sent_total")).toBeGreaterThanOrEqual(1)
    expect(valueOf(metrics, "khel_odds_batch_lag_seconds_count")).toBeGreaterThanOrEqual(1)
    expect(valueOf(metrics, "khel_odds_batch_lag_seconds_sum")).toBeLessThan(60 * valueOf(metrics, "khel_odds_batch_lag_seconds_count")!)
    expect(valueOf(metrics, "khel_odds_leading")).toBe(0)
    expect(valueOf(await scrape(a.metricsUrl), "khel_odds_leading")).toBe(1)
    expect(metrics.filter((sample) => sample.name === "khel_odds_leader_since_timestamp_seconds").map((sample) => sample.labels)).toEqual([{ server_id: "odds-a" }])
    // Its odds are fresh: it is ready for players.
    expect(await (await fetch(`${b.url}/ready`)).json()).toMatchObject({ status: "ready", checks: { odds: true } })
  })

  it("takes an operator's price through any server, and checks bets on every server against it", async () => {
    const [home] = market.runners.map((r) => r.selectionId)
    const set = await setPrice(b, admin, { marketId: market.marketId, selectionId: home, back: { price: 2.5, size: 500 }, lay: { price: 2.52, size: 500 }, status: "OPEN" })
    expect(set.status).toBe(200)
    expect(set.body.data.runners[0].back[0].price).toBe(2.5)
    // Stored before the answer: both servers serve it at once.
    for (const server of [a, b]) {
      const book = (await eventOdds(server, eventId)).markets.find((m) => m.marketId === market.marketId)!
      expect(book.runners[0]!.back[0]!.price).toBe(2.5)
    }
    const player = await signUpPlayer(a)
    await fund(a, player.user.id, 100_000)
    for (const server of [a, b]) {
      const placed = await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 2.5, stake: 100 })
      expect(placed.status, JSON.stringify(placed.body)).toBe(200)
      expect(placed.body.data.bet).toMatchObject({ status: "matched", matches: [{ odds: 2.5, stake: 100 }] })
      // A better price than the book's waits the same way on both.
      const greedy = await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 2.6, stake: 100 })
      expect(greedy.status).toBe(200)
      expect(greedy.body.data.bet).toMatchObject({ status: "unmatched", unmatched: 100 })
    }
    expect((await balances(b, player.token)).exposure).toBe(-400)
    await expectLedgerClean(a)
  })

  // A leader's book reaches the other servers' memory a moment after it is stored; a bet in that moment is still
  // checked against the stored book (read in the bet's own statement), never against an older one in memory.
  it("checks a bet against the stored book even before the server has heard of it", async () => {
    const [home] = market.runners.map((r) => r.selectionId)
    expect((await setPrice(b, admin, { marketId: market.marketId, selectionId: home, back: { price: 2.5, size: 500 }, lay: { price: 2.52, size: 500 }, status: "OPEN" })).status).toBe(200)
    // As a leader elsewhere would store it, with no word to anyone: the servers' memory still says 2.5.
    await a.sql((sql) => sql`UPDATE odds_books SET book = jsonb_set(book, '{runners,0,back,0,price}', '3') WHERE market_id = ${market.marketId}`)
    const shown = (await eventOdds(a, eventId)).markets.find((m) => m.marketId === market.marketId)!
    expect(shown.runners[0]!.back[0]!.price).toBe(2.5)
    const player = await signUpPlayer(a)
    await fund(a, player.user.id, 100_000)
    const placed = await bet(a, player.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 3, stake: 100 })
    expect(placed.status, JSON.stringify(placed.body)).toBe(200)
    // Matched at the stored 3 (against the 2.5 in memory it would have waited).
    expect(placed.body.data.bet).toMatchObject({ status: "matched", matches: [{ odds: 3, stake: 100 }] })
    await expectLedgerClean(a)
  })

  it("hands the leadership over when the leader stops: the next one carries on from the stored books", async () => {
    const stored = await b.run(BookStore.use((store) => store.book(market.marketId)))
    await a.close()
    stopped.add(a)
    await expect.poll(() => leads(b), { timeout: 30_000, interval: 100 }).toBe(true)
    // Carried on, not seeded again: the operator's price and the book's version go on from where they were.
    const book = (await eventOdds(b, eventId)).markets.find((m) => m.marketId === market.marketId)!
    expect(book.version).toBeGreaterThanOrEqual(stored!.version)
    expect(book.runners[0]!.back[0]!.price).toBe(2.5)
    const [latest, previous] = await b.run(BookStore.use((store) => store.leaderships(2)))
    expect(latest!.epoch).toBe(previous!.epoch + 1)
    // Who leads, as the metrics say it: b, and only b.
    const metrics = await scrape(b.metricsUrl)
    expect(valueOf(metrics, "khel_odds_leading")).toBe(1)
    const since = metrics.filter((sample) => sample.name === "khel_odds_leader_since_timestamp_seconds")
    expect(since.map((sample) => sample.labels)).toEqual([{ server_id: "odds-b" }])
    expect(since[0]!.value).toBeCloseTo(latest!.since.getTime() / 1000, 2)
    // The gap, on the database's clock: the old leader's last write to the new one's first.
    const gap = latest!.firstWriteAt!.getTime() - previous!.lastWriteAt!.getTime()
    console.log(`odds takeover after a clean stop: ${gap} ms from the old leader's last write to the new leader's first`)
    expect(gap).toBeLessThan(5000)
  })
})
