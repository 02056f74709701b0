import { describe, expect, it } from "vitest"
import { HISTORY_STEP_MS } from "../../src/domain/priceHistory.ts"
import type { PriceHistory } from "../../src/schema/betting.ts"
import { request, useServer } from "./helpers.ts"
import { catalogue, eventsOf, marketOf, setPrice } from "./betting-support.ts"
import { advance, clock } from "./protection-support.ts"

/**
 * GET /price-history: an exchange market's best back prices over the last
 * hour, from the books every server receives (server/odds/PriceHistory.ts).
 * The simulator's clock is off, so the only price moves are the ones the test
 * makes; the server's clock is frozen and moved by the test.
 */
process.env.ODDS_SIMULATOR = "off"

const server = useServer({ config: { testClock: true }, signIn: ["admin"] })

const history = async (marketId: string) => {
  const res = await request(server.url, `/api/v1/price-history?market_id=${encodeURIComponent(marketId)}`)
  return res
}

describe(`price history (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("follows the prices a market moves to, one point per step, on the server's clock", async () => {
    const match = eventsOf(await catalogue(server), "cricket", false).find((event) => event.markets.some((m) => m.name === "Match Odds"))!
    const market = marketOf(match, "EXCHANGE", "Match Odds")
    const [home, away] = market.runners.map((r) => r.selectionId)
    const price = async (back: number) =>
      expect((await setPrice(server, server.admin, { marketId: market.marketId, selectionId: home!, back: { price: back, size: 1000 }, lay: { price: back + 0.02, size: 1000 }, status: "OPEN" })).status).toBe(200)

    const { now: start } = await clock(server, { frozen: true })
    await price(2)
    const first = (await history(market.marketId)).body.data as PriceHistory
    expect(first.marketId).toBe(market.marketId)
    expect(first.step).toBe(HISTORY_STEP_MS)
    expect(first.now).toBe(start.getTime())
    expect(first.runners.map((r) => r.selectionId)).toEqual([home, away])
    const homePrices = (h: PriceHistory) => h.runners.find((r) => r.selectionId === home)!.prices
    expect(homePrices(first).at(-1)).toBe(2)
    expect(first.times.at(-1)).toBe(start.getTime())

    // Within the same step the point takes the new price; a step later a new point is added.
    await price(2.1)
    const same = (await history(market.marketId)).body.data as PriceHistory
    expect(same.times).toEqual(first.times)
    expect(homePrices(same).at(-1)).toBe(2.1)
    await advance(server, HISTORY_STEP_MS / 1000)
    await price(2.5)
    const next = (await history(market.marketId)).body.data as PriceHistory
    expect(next.times).toEqual([...first.times, start.getTime() + HISTORY_STEP_MS])
    expect(homePrices(next).slice(-2)).toEqual([2.1, 2.5])
    expect(next.times).toEqual([...next.times].sort((a, b) => a - b))
    for (const runner of next.runners) expect(runner.prices).toHaveLength(next.times.length)
    await clock(server, { frozen: false })
  })

  it("refuses a market it has no chart of with an envelope error", async () => {
    const unknown = await history("no-such-market")
    expect(unknown.status).toBe(404)
    expect(unknown.body.meta).toMatchObject({ code: 404, error: "NotFound" })
    expect(unknown.body.meta.message).toMatch(/no price chart/i)

    // A bookmaker market's rates are set by hand: no chart.
    const match = eventsOf(await catalogue(server), "cricket", false).find((event) => event.markets.some((m) => m.marketType === "BOOKMAKER"))!
    expect((await history(marketOf(match, "BOOKMAKER").marketId)).status).toBe(404)

    const tooLong = await history("x".repeat(65))
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.meta.error).toBe("InvalidInput")
  })
})
