import { Effect } from "effect"
import { io } from "socket.io-client"
import { beforeAll, describe, expect, it } from "vitest"
import { overRunsName } from "../../src/domain/eventBook.ts"
import { Draws } from "../../server/odds/Draws.ts"
import { Simulation } from "../../server/odds/layer.ts"
import { matchAt, matchDuration } from "../../server/odds/simulation.ts"
import { request, useServer } from "./helpers.ts"
import { catalogue, eventsOf } from "./betting-support.ts"
import { advance, clock } from "./protection-support.ts"

/**
 * A line play opens (the next wicket's fall), on the real server: the match
 * moved to just before its first wicket, the server's test clock driven a
 * ball at a time, and the simulator's steps run at the clock's moment (its
 * own clock is off). The line opens when the wicket falls, suspends on the
 * next ball, reopens priced, and settles on the runs at its own wicket.
 * The odds channel's `catalogue` message for a line opened names its event.
 */
process.env.ODDS_SIMULATOR = "off"

const BALL_SECONDS = matchDuration("4") / 240 / 1000

const server = useServer({ config: { testClock: true } })

/** The simulator's scores step (and a price tick) at the server's clock. */
const step = async () => {
  const { now } = await clock(server)
  await server.run(Effect.gen(function*() {
    const simulator = (yield* (yield* Simulation).current)!
    yield* simulator.scores(now.getTime())
    simulator.tick(now.getTime())
  }))
}

const books = async (eventId: string) => {
  const res = await request(server.url, `/api/v1/event-odds?event_id=${eventId}`)
  return res.body.data.markets as Array<{ marketId: string; status: string; runners: Array<{ back: Array<{ price: number }>; lay: Array<{ price: number }> }> }>
}

const lineOf = (eventId: string, name: string) =>
  server.sql((sql) => sql<{ externalId: string; status: string; result: string | null }>`
    SELECT m.external_id, m.status, r.result FROM markets m LEFT JOIN market_results r ON r.market_id = m.id
     WHERE m.event_id = ${eventId} AND m.name = ${name}
  `).then((rows) => rows[0])

describe("the next wicket's fall on a match driven by the test clock", () => {
  let eventId = ""
  let side = ""
  let wickets: ReadonlyArray<number> = []
  let runs: ReadonlyArray<number> = []

  beforeAll(async () => {
    const { now } = await clock(server, { frozen: true })
    const events = eventsOf(await catalogue(server), "cricket", false)
    const seeds = await server.run(Effect.gen(function*() {
      return yield* (yield* Draws).seeds(events.map((e) => e._id))
    }))
    // A match whose first innings loses three wickets, the second not on the ball after the first.
    const found = events.map((event) => {
      const final = matchAt({ id: event._id, name: event.name, sportCode: "4", startsAt: 0, seed: seeds.get(event._id)! }, matchDuration("4"))!
      return { event, innings: final.innings!, side: final.progress.kind === "cricket" ? final.progress.sides[0] : "" }
    }).find(({ innings }) => innings.wicketsAt.length >= 3 && innings.wicketsAt[1]! > innings.wicketsAt[0]! + 1)!
    eventId = found.event._id
    side = found.side
    wickets = found.innings.wicketsAt
    runs = found.innings.runs
    // Half a ball before the first wicket's ball is bowled.
    const startsAt = new Date(now.getTime() - (wickets[0]! + 0.5) * BALL_SECONDS * 1000)
    await server.sql((sql) => sql`UPDATE events SET starts_at = ${startsAt}, status = 'live' WHERE id = ${eventId}`)
    await server.run(Effect.gen(function*() {
      yield* (yield* (yield* Simulation).current)!.load(now.getTime())
    }))
  })

  it("opens when the wicket before it falls, suspends on a ball, reopens priced, and settles on the runs at its fall", async () => {
    // Every client hears the line open, as a change of this event's markets alone (its page reloads, lists need not).
    const socket = io(server.url, { path: "/socket.io/", transports: ["websocket"] })
    const heard: Array<unknown> = []
    socket.on("catalogue", (change: unknown) => heard.push(change))
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
    /** What the socket heard so far: a snapshot asked after a step comes after that step's messages. */
    const flushed = async () => {
      const snapshot = new Promise((resolve) => socket.once("odds.snapshot", resolve))
      socket.emit("odds.watch", eventId)
      await snapshot
      socket.emit("odds.unwatch", eventId)
      return heard.length
    }
    await step()
    expect(await lineOf(eventId, `Fall of 2nd Wkt ${side}`)).toBeUndefined()
    expect((await lineOf(eventId, `Fall of 1st Wkt ${side}`))!.status).toBe("OPEN")
    // The over being bowled has its line too (the first from the catalogue, the others opened by play).
    const over = Math.floor(wickets[0]! / 6) + 1
    expect((await lineOf(eventId, overRunsName(over, side)))?.status).toBe("OPEN")

    // The first wicket falls: its line settles on the runs then, the next one opens, listed and priced.
    const before = await flushed()
    await advance(server, BALL_SECONDS)
    await step()
    expect(await lineOf(eventId, `Fall of 1st Wkt ${side}`)).toMatchObject({ status: "SETTLED", result: String(runs[wickets[0]!]) })
    const line = (await lineOf(eventId, `Fall of 2nd Wkt ${side}`))!
    expect(line.status).toBe("OPEN")
    await flushed()
    // (Another live match may have opened a line too: named as well, never a bare change of the whole catalogue.)
    expect(heard.slice(before)).toContainEqual({ at: expect.any(Number), eventId })
    expect(heard.slice(before).every((change) => typeof (change as { eventId?: unknown }).eventId === "string")).toBe(true)
    socket.disconnect()
    const event = eventsOf(await catalogue(server), "cricket").find((e) => e._id === eventId)!
    expect(event.markets.map((m) => m.name)).toContain(`Fall of 2nd Wkt ${side}`)
    const book = () => books(eventId).then((all) => all.find((m) => m.marketId === line.externalId))
    // Books reach every server as they are published (on PostgreSQL, through the odds leader's table): polled.
    await expect.poll(async () => (await book())?.runners[0]?.back[0]?.price ?? 0).toBeGreaterThan(runs[wickets[0]!]!)

    // The next ball: suspended for it, then open again with a Yes line above the runs so far.
    await advance(server, BALL_SECONDS)
    await step()
    await expect.poll(async () => (await book())?.status).toBe("SUSPENDED")
    await advance(server, 3)
    await step()
    await expect.poll(async () => (await book())?.status).toBe("OPEN")
    expect((await book())!.runners[0]!.back[0]!.price).toBeGreaterThan(runs[wickets[0]! + 1]!)
    const bowled = wickets[0]! + 2

    // Its wicket falls: settled on the runs then, and the third opens.
    await advance(server, (wickets[1]! + 1 - bowled) * BALL_SECONDS)
    await step()
    expect(await lineOf(eventId, `Fall of 2nd Wkt ${side}`)).toMatchObject({ status: "SETTLED", result: String(runs[wickets[1]!]) })
    expect((await lineOf(eventId, `Fall of 3rd Wkt ${side}`))?.status).toBe("OPEN")
  })

  it("settles the open line at the end, and the next fixture starts with the catalogue's lines only", async () => {
    const { now } = await clock(server)
    await server.sql((sql) => sql`UPDATE events SET starts_at = ${new Date(now.getTime() - matchDuration("4") - 60_000)} WHERE id = ${eventId}`)
    await server.run(Effect.gen(function*() {
      const simulator = (yield* (yield* Simulation).current)!
      yield* simulator.load(now.getTime())
      yield* simulator.lifecycle(now.getTime())
    }))
    expect(await lineOf(eventId, `Fall of 3rd Wkt ${side}`)).toMatchObject({ status: "SETTLED", result: String(runs[wickets[2]!]) })
    const [event] = await server.sql((sql) => sql<{ name: string; leagueId: string }>`SELECT name, league_id FROM events WHERE id = ${eventId}`)
    const names = await server.sql((sql) => sql<{ name: string }>`
      SELECT m.name FROM markets m JOIN events e ON e.id = m.event_id
       WHERE e.league_id = ${event!.leagueId} AND e.name = ${event!.name} AND e.status = 'scheduled'
    `)
    expect(names.map((m) => m.name)).toContain(`Fall of 1st Wkt ${side}`)
    expect(names.map((m) => m.name)).not.toContain(`Fall of 2nd Wkt ${side}`)
  })
})
