import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { Matcher } from "../../server/betting/Matcher.ts"
import { Simulation } from "../../server/odds/layer.ts"
import { connectSocket, request, useServer } from "./helpers.ts"
import { balances, bet, catalogue, type CatalogueEvent, type CatalogueSport, eventsOf, expectLedgerClean, fundedPlayer, marketOf, priceOf, setPrice } from "./betting-support.ts"

/**
 * Exchange bets matched against the ladder, what waits unmatched, cancelled,
 * moved, matched as the market comes to it, and cancelled at settlement or at
 * in-play (server/betting/Waiting.ts, Matcher.ts). Prices move only when a test sets them
 * (the operator's manual price: three levels a tick apart, each with the size
 * given); matching waiting bets happens on the server's own after a price is
 * published, so a test waits for the bet's state, never for a time.
 */
process.env.ODDS_SIMULATOR = "off"

const server = useServer({ signIn: ["admin"] })
let sports: Array<CatalogueSport>

const player = (rupees: number) => fundedPlayer(server, rupees)

beforeAll(async () => {
  sports = await catalogue(server)
})

/** Prices a runner's back side at `back` (and two ticks below), each level with `size` rupees, and its lay side above. */
const price = async (event: CatalogueEvent, back: number, size: number, selection = 0) => {
  const market = marketOf(event, "EXCHANGE")
  const res = await setPrice(server, server.admin, {
    marketId: market.marketId,
    selectionId: market.runners[selection]!.selectionId,
    back: { price: back, size },
    lay: { price: 5, size },
    status: "OPEN"
  })
  expect(res.status).toBe(200)
  return { marketId: market.marketId, selectionId: market.runners[selection]!.selectionId, runner: market.runners[selection]!.name }
}

type Bet = {
  _id: string
  selectionType: string
  status: string
  odds: number
  stake: number
  matched: number
  unmatched: number
  matches: Array<{ odds: number; stake: number }>
  persistence: string
}

const myBets = async (token: string, marketId: string) =>
  (await request(server.url, `/api/v1/bet-sport-byMarket?marketId=${marketId}`, { token })).body.data as Array<Bet>

/** The bet as it is now, from the database (open or not). */
const stored = async (id: string) => {
  const [row] = await server.sql((sql) => sql<{ status: string; unmatched: bigint; cancelled: bigint; stake: bigint; matches: Array<{ odds: number; stake: number }> | null }>`
    SELECT status, unmatched, cancelled, stake, matches FROM bets WHERE id = ${id}
  `)
  const matched = (row!.matches ?? []).reduce((sum, m) => sum + m.stake, 0)
  return { status: row!.status, unmatched: Number(row!.unmatched), cancelled: Number(row!.cancelled), matched, stake: Number(row!.stake), matches: row!.matches ?? [] }
}

const cancel = (token: string, json: Record<string, unknown>, key?: string) =>
  request(server.url, "/api/v1/cancel-bet", { method: "POST", token, json, ...(key ? { headers: { "idempotency-key": key } } : {}) })
const edit = (token: string, json: Record<string, unknown>, key?: string) =>
  request(server.url, "/api/v1/edit-bet", { method: "POST", token, json, ...(key ? { headers: { "idempotency-key": key } } : {}) })

const sweep = () => server.run(Effect.gen(function*() {
  yield* (yield* Matcher).sweep
}))

describe("matching against the ladder", () => {
  it("a bet bigger than the ladder is matched level by level at its price or better, the rest waits; it matches when the market comes to it", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "cricket", false)[0]!
    const m = await price(event, 1.8, 100)
    const socket = await connectSocket(server.url, p.token)
    const told: Array<string> = []
    socket.on(p.user.id, (payload: { message?: string }) => payload.message && told.push(payload.message))

    const res = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 1.78, stake: 500 })
    expect(res.status).toBe(200)
    expect(res.body.meta.message).toBe("₹300.00 matched at 1.79, ₹200.00 waiting at 1.78")
    expect(res.body.data.bet).toMatchObject({
      odds: 1.78, stake: 500, status: "partially_matched", matched: 300, unmatched: 200,
      matches: [{ odds: 1.8, stake: 100 }, { odds: 1.79, stake: 100 }, { odds: 1.78, stake: 100 }]
    })
    // A back bet loses its stake, matched or not: all 500 held.
    expect(res.body.data.marketExposure).toBe(500)
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: -500 })

    // The market moves to 1.78 with more on offer: what waits is matched at once, and the player is told.
    await price(event, 1.78, 1000)
    await expect.poll(async () => (await myBets(p.token, m.marketId))[0]?.status).toBe("matched")
    const [matched] = await myBets(p.token, m.marketId)
    expect(matched).toMatchObject({ matched: 500, unmatched: 0, matches: [{ odds: 1.8, stake: 100 }, { odds: 1.79, stake: 100 }, { odds: 1.78, stake: 300 }] })
    await expect.poll(() => told).toEqual([`${m.runner}: Matched ₹200.00 at 1.78`])
    socket.close()
    expect((await balances(server, p.token)).exposure).toBe(-500)
    await expectLedgerClean(server)
  })

  it("a matched bet takes its stake off the ladder the players see: the level shows what is left, at the same price", async () => {
    const p = await player(5000)
    const event = eventsOf(sports, "cricket", false)[3]!
    const market = marketOf(event, "EXCHANGE", "Match Odds")
    const runner = market.runners[0]!
    const before = await priceOf(server, event._id, market.marketId, runner.selectionId)
    // The least stake, inside the best level (its sizes start at ₹100): one level is taken and no more.
    const stake = 100
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: before.back.price, stake })
    expect(res.body.meta.message).toBe(`Matched ₹${stake}.00 at ${before.back.price.toFixed(2)}`)
    await expect.poll(async () => (await priceOf(server, event._id, market.marketId, runner.selectionId)).back)
      .toEqual({ price: before.back.price, size: Math.round(before.back.size - stake) })
    // The lay side was not touched.
    expect((await priceOf(server, event._id, market.marketId, runner.selectionId)).lay).toEqual(before.lay)
  })

  it("a bet bigger than the best level takes it whole: the level leaves the ladder, and what waits is not matched again", async () => {
    const p = await player(100_000)
    const event = eventsOf(sports, "football", false)[2]!
    const market = marketOf(event, "EXCHANGE", "Match Odds")
    const runner = market.runners[0]!
    const before = await priceOf(server, event._id, market.marketId, runner.selectionId)
    const stake = Math.ceil(before.back.size) + 500
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: before.back.price, stake })
    expect(res.body.data.bet).toMatchObject({ matched: before.back.size, unmatched: stake - before.back.size })
    // Nothing is left at that price: the best back is now the next level down.
    await expect.poll(async () => (await priceOf(server, event._id, market.marketId, runner.selectionId)).back.price).toBeLessThan(before.back.price)
    // Matching again finds nothing at the asked price: what waits stays as it was (no crumbs matched one after another).
    await sweep()
    await sweep()
    expect(await stored(res.body.data.bet._id)).toMatchObject({ matched: before.back.size * 100, unmatched: (stake - before.back.size) * 100 })
  })

  it("in play, bets whose price moved a tick during the delay are all taken: those it moved against wait, then match when it returns", async () => {
    const p = await player(10_000)
    const event = eventsOf(sports, "cricket", true)[0]!
    // The price on screen is 1.80 for the first runner and 2.50 for the second.
    const first = await price(event, 1.8, 1000, 0)
    const second = await price(event, 2.5, 1000, 1)
    // While the bets wait out the delay, the first moves a tick against the backers, the second a tick for them.
    await price(event, 1.79, 1000, 0)
    await price(event, 2.52, 1000, 1)
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => {
      const m = i % 2 === 0 ? first : second
      return bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: i % 2 === 0 ? 1.8 : 2.5, stake: 100 })
    }))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    expect(answers.filter((_, i) => i % 2 === 0).map((a) => a.body.meta.message)).toEqual(Array(5).fill("Waiting at 1.80"))
    expect(answers.filter((_, i) => i % 2 === 1).map((a) => a.body.meta.message)).toEqual(Array(5).fill("Matched ₹100.00 at 2.52"))
    // Placed in play, what waits is kept.
    expect(answers[0]!.body.data.bet).toMatchObject({ status: "unmatched", persistence: "keep", unmatched: 100 })

    await price(event, 1.8, 1000, 0)
    await expect.poll(async () => (await myBets(p.token, first.marketId)).map((b) => b.status)).toEqual(Array(10).fill("matched"))
    const matchedAt = (await myBets(p.token, first.marketId)).filter((b) => b.selectionType === "back" && b.odds === 1.8)
    expect(matchedAt.every((b) => b.matches.length === 1 && b.matches[0]!.odds === 1.8)).toBe(true)
    await expectLedgerClean(server)
  })
})

describe("cancelling and moving what waits", () => {
  it("cancels part, then the rest, once per key; the hold follows; nothing to cancel is refused", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "cricket", false)[1]!
    const m = await price(event, 1.8, 100)
    const placed = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 2, stake: 500 })
    expect(placed.body.meta.message).toBe("Waiting at 2.00")
    const id = placed.body.data.bet._id as string
    // The header's balance counts what is held (the spec's balance plus exposure): only the exposure moves.
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: -500 })

    const part = await cancel(p.token, { betId: id, stake: 200 }, "cancel-1")
    expect(part.status).toBe(200)
    expect(part.body.meta.message).toBe(`${m.runner}: Waiting at 2.00, ₹200.00 cancelled`)
    expect(part.body.data).toMatchObject({ bet: { status: "unmatched", unmatched: 300, matched: 0 }, marketExposure: 300 })
    // The same key again: the first answer, nothing moved again; with another request: refused.
    expect((await cancel(p.token, { betId: id, stake: 200 }, "cancel-1")).body.data).toEqual(part.body.data)
    expect((await cancel(p.token, { betId: id, stake: 100 }, "cancel-1")).status).toBe(409)
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: -300 })

    const other = await player(0)
    expect((await cancel(other.token, { betId: id })).body.meta).toMatchObject({ code: 404, error: "NotFound" })
    expect((await cancel(p.token, { betId: id, stake: 0.001 })).status).toBe(400)

    const rest = await cancel(p.token, { betId: id })
    expect(rest.body.data).toMatchObject({ bet: { status: "cancelled", unmatched: 0, matched: 0 }, marketExposure: 0 })
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: 0 })
    expect(await myBets(p.token, m.marketId)).toEqual([])
    const again = await cancel(p.token, { betId: id })
    expect(again.body.meta).toMatchObject({ code: 422, error: "NotWaiting" })
    expect(await stored(id)).toMatchObject({ status: "cancelled", cancelled: 50_000, unmatched: 0 })
    await expectLedgerClean(server)
  })

  it("moves what waits to another price: matched there at once as far as the ladder goes; a dearer price needs the money", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "cricket", false)[2]!
    const m = await price(event, 1.8, 100)
    const placed = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 2, stake: 300 })
    const id = placed.body.data.bet._id as string
    const moved = await edit(p.token, { betId: id, odds: 1.79 }, "edit-1")
    expect(moved.status).toBe(200)
    expect(moved.body.data.bet).toMatchObject({ odds: 1.79, status: "partially_matched", matched: 200, unmatched: 100, matches: [{ odds: 1.8, stake: 100 }, { odds: 1.79, stake: 100 }] })
    expect((await edit(p.token, { betId: id, odds: 1.79 }, "edit-1")).body.data).toEqual(moved.body.data)
    expect((await edit(p.token, { betId: id, odds: 0.5 })).status).toBe(400)

    // A lay waiting at 2 (the lay side is offered from 5): at 4.9 it would risk more than the balance.
    const lay = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "lay", odds: 2, stake: 400 })
    expect(lay.body.data.bet.status).toBe("unmatched")
    const before = await balances(server, p.token)
    const dear = await edit(p.token, { betId: lay.body.data.bet._id, odds: 4.9 })
    expect(dear.body.meta).toMatchObject({ code: 422, error: "InsufficientBalance" })
    expect(await balances(server, p.token)).toEqual(before)
    expect(await stored(lay.body.data.bet._id)).toMatchObject({ unmatched: 40_000, matched: 0 })
    await expectLedgerClean(server)
  })

  // A waiting bet is matched by the server when the price reaches it while the player cancels it: whichever takes the
  // player's lock first decides, and the other acts on what it left. Half the time the ladder covers only half the
  // stake (then the match leaves half to cancel), half the time all of it (then the cancel may find nothing left).
  // A third of the rounds let the match land first, a third the cancel, and a third send both at once.
  it("a cancel racing a match has one outcome, a hundred times over", async () => {
    const p = await player(100_000)
    const event = eventsOf(sports, "tennis", false)[0]!
    for (let i = 0; i < 100; i++) {
      const size = i % 2 === 0 ? 50 : 1000
      const m = await price(event, 1.9, size)
      const placed = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 2, stake: 100 }, `race-${i}`)
      expect(placed.body.data.bet.status, `bet ${i}`).toBe("unmatched")
      const id = placed.body.data.bet._id as string
      // In turn: the match first (the cancel sent once it is seen), both at once, the cancel first.
      const move = () => price(event, 2, size)
      const stop = () => cancel(p.token, { betId: id }, `race-cancel-${i}`)
      const matchedFirst = async () => {
        await move()
        await expect.poll(async () => (await stored(id)).matched, { message: `bet ${i}` }).toBeGreaterThan(0)
        return stop()
      }
      const cancelled = i % 3 === 0 ? await matchedFirst() : i % 3 === 1 ? (await Promise.all([stop(), move()]))[0] : await stop().then(async (answer) => (await move(), answer))
      await expect.poll(async () => (await stored(id)).unmatched, { message: `bet ${i}` }).toBe(0)
      const bet_ = await stored(id)
      expect(bet_.matched + bet_.cancelled, `bet ${i}`).toBe(10_000)
      expect(bet_.matches.every((match) => match.odds === 2), `bet ${i}`).toBe(true)
      if (cancelled.status === 200) {
        expect(Math.round(cancelled.body.data.bet.matched * 100), `bet ${i}`).toBe(bet_.matched)
      } else {
        expect(cancelled.body.meta.error, `bet ${i}`).toBe("NotWaiting")
        expect(bet_.matched, `bet ${i}`).toBe(10_000)
      }
      expect(bet_.status, `bet ${i}`).toBe(bet_.matched === 0 ? "cancelled" : "open")
    }
    const user = await balances(server, p.token)
    const held = await server.sql((sql) => sql<{ exposure: bigint }>`SELECT exposure FROM market_exposures WHERE user_id = ${p.user.id}`)
    expect(Math.round(Math.abs(user.exposure) * 100)).toBe(held.reduce((sum, row) => sum + Number(row.exposure), 0))
    await expectLedgerClean(server)
  }, 300_000)
})

describe("what waits when the market ends or the event goes in play", () => {
  it("settlement cancels what waits: a bet of which nothing matched closes as cancelled, a partly matched one is settled on its matched part", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "football", false)[0]!
    const m = await price(event, 1.8, 100)
    const partly = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 1.8, stake: 300 })
    expect(partly.body.data.bet).toMatchObject({ matched: 100, unmatched: 200 })
    const waiting = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 3, stake: 200 })
    expect(waiting.body.data.bet.status).toBe("unmatched")
    expect((await balances(server, p.token)).exposure).toBe(-500)
    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: m.marketId, result: m.selectionId } })
    expect(settled.status).toBe(200)
    // Won 100 x 0.8 on the matched part; everything held released.
    expect(await balances(server, p.token)).toMatchObject({ balance: 1080, exposure: 0 })
    expect(await stored(partly.body.data.bet._id)).toMatchObject({ status: "won", matched: 10_000, cancelled: 20_000, unmatched: 0 })
    expect(await stored(waiting.body.data.bet._id)).toMatchObject({ status: "cancelled", matched: 0, cancelled: 20_000, unmatched: 0 })
    await expectLedgerClean(server)
  })

  it("voiding a market cancels what waits and returns every hold", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "football", false)[1]!
    const m = await price(event, 1.8, 100)
    await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "lay", odds: 4, stake: 100 })
    expect((await balances(server, p.token)).exposure).toBe(-300)
    expect((await request(server.url, "/api/v1/admin/void-market", { method: "POST", token: server.admin, json: { marketId: m.marketId } })).status).toBe(200)
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: 0 })
    await expectLedgerClean(server)
  })

  it("at in-play, what waits is cancelled where the player chose so (the default before it) and kept where they chose Keep", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "tennis", false)[1]!
    const m = await price(event, 1.8, 100)
    const lapsing = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 1.8, stake: 300 })
    expect(lapsing.body.data.bet).toMatchObject({ persistence: "cancel", matched: 100, unmatched: 200 })
    const kept = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 3, stake: 200, persistence: "keep" })
    expect(kept.body.data.bet).toMatchObject({ persistence: "keep", unmatched: 200 })
    expect((await balances(server, p.token)).exposure).toBe(-500)

    // The event's start comes: the simulator's lifecycle puts it in play.
    const now = Date.now()
    await server.sql((sql) => sql`UPDATE events SET starts_at = ${new Date(now - 1000)} WHERE id = ${event._id}`)
    const started = await server.run(Effect.gen(function*() {
      const simulator = (yield* (yield* Simulation).current)!
      yield* simulator.load(now)
      return yield* simulator.lifecycle(now)
    }))
    expect(started.started).toBeGreaterThanOrEqual(1)
    await sweep()
    expect(await stored(lapsing.body.data.bet._id)).toMatchObject({ status: "open", matched: 10_000, unmatched: 0, cancelled: 20_000 })
    expect(await stored(kept.body.data.bet._id)).toMatchObject({ status: "open", unmatched: 20_000 })
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: -300 })

    // A bet placed in play that chose to be cancelled at in-play: what it cannot match now is cancelled at once.
    await price(event, 1.8, 100)
    const now_ = await bet(server, p.token, "bet-sport", { marketId: m.marketId, selectionId: m.selectionId, selectionType: "back", odds: 1.8, stake: 200, persistence: "cancel" })
    expect(now_.body.meta.message).toBe("₹100.00 matched at 1.80, ₹100.00 cancelled")
    await expectLedgerClean(server)
  })
})
