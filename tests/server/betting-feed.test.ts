import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Simulation } from "../../server/odds/layer.ts"
import { createHash } from "node:crypto"
import { fancyState, matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { winnerOf } from "../../server/odds/Lifecycle.ts"
import type { Runner } from "../../server/odds/prices.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import { loginAs, request, signUpPlayer, startServer, tempDir, type TestServer } from "./helpers.ts"
import { balances, bet, catalogue, eventsOf, expectLedgerClean, fund, marketOf, setPrice } from "./betting-support.ts"

/**
 * The simulator keeps the demo alive: an event past its running time is
 * claimed as settling, every market settled from the final score through the
 * ledger, and only then marked finished, with a new fixture scheduled in the
 * same league. A second server on the same data folder (PGlite, after the
 * first stops) picks the event up with its start moved into the past; on
 * PostgreSQL the two servers share one simulator (the odds leader's). The
 * simulator's clock is off: the test runs its lifecycle step itself, so
 * nothing depends on how fast the machine is.
 */
process.env.ODDS_SIMULATOR = "off"

/**
 * One lifecycle step of the simulator, at `now`, on whichever of the servers runs it (on PostgreSQL, the
 * odds leader), after it read the events again (the test moved starts in the database).
 */
const lifecycle = async (servers: ReadonlyArray<TestServer>, now = Date.now()) => {
  for (const server of servers) {
    const step = await server.run(Effect.gen(function*() {
      const simulator = yield* (yield* Simulation).current
      if (!simulator) return undefined
      yield* simulator.load(now)
      return yield* simulator.lifecycle(now)
    }))
    if (step) return step
  }
  throw new Error("none of these servers runs the simulator")
}

const running = () => [first, second].filter((server): server is TestServer => server !== undefined && !closed.has(server))
const closed = new Set<TestServer>()

/** Events marked finished while a market of theirs is still to settle: never any. */
const finishedButOpen = (server: TestServer) =>
  server.sql((sql) => sql<{ id: string }>`
    SELECT e.id FROM events e
     WHERE e.status = 'finished' AND EXISTS (SELECT 1 FROM markets m WHERE m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED'))
  `)

// Held here, not by useServer: a test stops the first server and starts a second on its data.
let first: TestServer
let second: TestServer | undefined
const dataDir = tempDir("feed")

afterAll(async () => {
  await second?.close()
  await first?.close()
})

describe("the simulator's lifecycle", () => {
  let eventId = ""
  let eventName = ""
  let leagueSlug = ""
  let playerToken = ""
  let backed = ""
  let home = ""
  let away = ""
  let strandedId = ""
  let strandedName = ""
  let commitment = ""

  beforeAll(async () => {
    first = await startServer({ dataDir })
    const admin = (await loginAs(first, "admin")).token
    const sports = await catalogue(first)
    const cricket = sports.find((s) => s.slugName === "cricket")!
    const league = cricket.leagues.find((l) => l.events.some((e) => !e.inPlay))!
    const event = league.events.find((e) => !e.inPlay)!
    eventId = event._id
    eventName = event.name
    leagueSlug = league.slugName
    const market = marketOf(event, "EXCHANGE")
    ;[home, away] = market.runners.map((r) => r.selectionId) as [string, string]
    const player = await signUpPlayer(first)
    playerToken = player.token
    await fund(first, player.user.id, 100_000)
    await setPrice(first, admin, { marketId: market.marketId, selectionId: home, back: { price: 2, size: 1000 }, lay: { price: 2.02, size: 1000 }, status: "OPEN" })
    const placed = await bet(first, player.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 2, stake: 300 })
    expect(placed.status).toBe(200)
    backed = home
    // Published before the start: the commitment to the event's seed, never the seed.
    const before = await request(first.url, `/api/v1/event-fairness?event_id=${eventId}`)
    expect(before.body.data).toMatchObject({ eventId, seed: null, revealedAt: null })
    commitment = before.body.data.commitment
    expect(commitment).toMatch(/^[0-9a-f]{64}$/)
    // The match started long enough ago to be over.
    const started = new Date(Date.now() - matchDuration("4") - 60_000)
    await first.sql((sql) => sql`UPDATE events SET starts_at = ${started}, status = 'live' WHERE id = ${eventId}`)
    // A server that stopped half-way: the event claimed as settling, its markets still open.
    const stranded = eventsOf(sports, "football", false)[2]!
    strandedId = stranded._id
    strandedName = stranded.name
    await first.sql((sql) => sql`UPDATE events SET starts_at = ${new Date(Date.now() - 3 * 3600_000)}, status = 'settling' WHERE id = ${strandedId}`)
    if (first.engine === "pglite") {
      await first.close()
      closed.add(first)
      second = await startServer({ dataDir })
    } else {
      second = await startServer({ dataDir: tempDir("feed2"), databaseUrl: first.databaseUrl })
    }
  })

  it("settles every market of the event from the final score, then finishes it and schedules the next fixture", async () => {
    const server = second!
    const step = await lifecycle(running())
    expect(step.finished).toBeGreaterThanOrEqual(1)
    const [event] = await server.sql((sql) => sql<{ status: string }>`SELECT status FROM events WHERE id = ${eventId}`)
    expect(event!.status).toBe("finished")
    expect(await finishedButOpen(server)).toEqual([])

    const open = await server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM markets WHERE event_id = ${eventId} AND status NOT IN ('SETTLED', 'VOID')`)
    expect(open[0]!.n).toBe(0)
    const settledBy = await server.sql((sql) => sql<{ settledBy: string }>`
      SELECT r.settled_by FROM market_results r JOIN markets m ON m.id = r.market_id WHERE m.event_id = ${eventId}
    `)
    expect(settledBy.length).toBeGreaterThanOrEqual(6)
    expect(new Set(settledBy.map((r) => r.settledBy))).toEqual(new Set(["feed"]))

    // Nothing public before the start told the result: the match played from what anyone could see (the event's id,
    // its feed id) is not the one that was settled, fancy line by fancy line.
    const [row] = await server.sql((sql) => sql<{ startsAt: Date; externalId: string }>`SELECT starts_at, external_id FROM events WHERE id = ${eventId}`)
    const startsAt = new Date(row!.startsAt).getTime()
    const settled = await server.sql((sql) => sql<{ name: string; marketType: MarketType; result: string; runners: Array<Runner> }>`
      SELECT m.name, m.market_type, r.result,
             (SELECT json_agg(json_build_object('selectionId', x.selection_id, 'name', x.name) ORDER BY x.sort) FROM runners x WHERE x.market_id = m.id) AS runners
        FROM market_results r JOIN markets m ON m.id = r.market_id WHERE m.event_id = ${eventId} ORDER BY m.sort
    `)
    const predicted = (seed: string) => {
      const final = matchAt({ id: eventId, name: eventName, sportCode: "4", startsAt, seed } as never, Number.MAX_SAFE_INTEGER)!
      return settled.map((m) => m.marketType === "FANCY" ? String(fancyState(m.name, final).result) : winnerOf(m, "4", final, seed) ?? null)
    }
    const results = settled.map((m) => m.result)
    for (const guess of [eventId, row!.externalId, createHash("sha256").update(eventId).digest("hex")]) expect(predicted(guess)).not.toEqual(results)
    // After it: the seed, whose SHA-256 is the commitment published before the start, plays the very match settled.
    const after = await request(server.url, `/api/v1/event-fairness?event_id=${eventId}`)
    const seed: string = after.body.data.seed
    expect(after.body.data).toMatchObject({ eventId, commitment, seed: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(createHash("sha256").update(seed).digest("hex")).toBe(commitment)
    expect(predicted(seed)).toEqual(results)

    // The player's bet paid by the settled result.
    const winner = results[settled.findIndex((m) => m.name === "Match Odds")]
    const user = await balances(server, playerToken)
    expect(user.exposure).toBe(0)
    expect(user.balance).toBe(winner === backed ? 1300 : winner === null ? 1000 : 700)

    // A new fixture of the same teams in the same league, with the same markets.
    const sports = (await request(server.url, "/api/v1/get-sports-data")).body.data
    const next = eventsOf(sports, "cricket").filter((e) => e.name === eventName && e._id !== eventId)
    expect(next).toHaveLength(1)
    expect(next[0]!.markets.map((m) => m.name)).toEqual(expect.arrayContaining(["Match Odds", "Bookmaker"]))
    const league = sports.find((s: { slugName: string }) => s.slugName === "cricket").leagues.find((l: { slugName: string }) => l.slugName === leagueSlug)
    expect(league.events.map((e: { _id: string }) => e._id)).toContain(next[0]!._id)
    await expectLedgerClean(server)
  })

  it("settles the markets of an event a stopped server left settling, then finishes it and schedules its successor once", async () => {
    const server = second!
    // The step above recovered it already; another finds nothing left to do.
    expect((await lifecycle(running())).recovered).toBe(0)
    const [open] = await server.sql((sql) => sql<{ n: number }>`
      SELECT count(*)::int AS n FROM markets WHERE event_id = ${strandedId} AND status NOT IN ('SETTLED', 'VOID')
    `)
    expect(open!.n).toBe(0)
    const [stranded] = await server.sql((sql) => sql<{ status: string }>`SELECT status FROM events WHERE id = ${strandedId}`)
    expect(stranded!.status).toBe("finished")
    expect(await finishedButOpen(server)).toEqual([])
    const successors = await server.sql((sql) => sql<{ id: string }>`
      SELECT id FROM events WHERE name = ${strandedName} AND status IN ('scheduled', 'live')
    `)
    expect(successors).toHaveLength(1)
    await expectLedgerClean(server)
  })
})
