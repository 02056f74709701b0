import { describe, expect, it } from "vitest"
import type { ResultsPage } from "../../src/schema/results.ts"
import { catalogue, eventsOf, marketOf, settleMarket } from "./betting-support.ts"
import { request, useServer } from "./helpers.ts"

// Nothing settles but what the test settles.
process.env.ODDS_SIMULATOR = "off"

const server = useServer({ signIn: ["admin"] })

const results = async (query = "") => {
  const res = await request(server.url, `/api/v1/results${query}`)
  expect(res.status).toBe(200)
  return res.body.data as ResultsPage
}

describe("results", () => {
  it("lists the markets settled in the last 7 days, newest first, with the winner, the line's runs or void", async () => {
    const sports = await catalogue(server)
    const race = eventsOf(sports, "horse-racing")[0]!
    const win = race.markets[0]!
    const match = eventsOf(sports, "cricket")[0]!
    const [first, second] = match.markets.filter((m) => m.marketType === "FANCY")
    const matchOdds = marketOf(match, "EXCHANGE", "Match Odds")

    expect((await settleMarket(server, server.admin, win.marketId, win.runners[1]!.selectionId)).status).toBe(200)
    expect((await settleMarket(server, server.admin, first!.marketId, "57")).status).toBe(200)
    const voided = await request(server.url, "/api/v1/admin/void-market", { method: "POST", token: server.admin, json: { marketId: second!.marketId, reason: "Rain" } })
    expect(voided.status).toBe(200)
    expect((await settleMarket(server, server.admin, matchOdds.marketId, matchOdds.runners[0]!.selectionId)).status).toBe(200)

    const all = await results()
    expect(all.next).toBeNull()
    expect(all.rows.map((row) => row.marketId)).toEqual([matchOdds.marketId, second!.marketId, first!.marketId, win.marketId])
    expect(all.rows[3]).toMatchObject({
      market: win.name, marketType: "EXCHANGE", event: race.name,
      sport: "Horse Racing", sportSlug: "horse-racing", outcome: "result", result: win.runners[1]!.name
    })
    expect(all.rows[2]).toMatchObject({ market: first!.name, marketType: "FANCY", event: match.name, sportSlug: "cricket", outcome: "result", result: "57" })
    expect(all.rows[1]).toMatchObject({ outcome: "void", result: null })
    expect(all.rows[0]).toMatchObject({ market: "Match Odds", result: matchOdds.runners[0]!.name })
    expect(Date.parse(all.rows[0]!.settledAt)).toBeGreaterThanOrEqual(Date.parse(all.rows[3]!.settledAt))

    // By sport.
    expect((await results("?sport=horse-racing")).rows.map((row) => row.marketId)).toEqual([win.marketId])

    // Page by page, one row at a time, the same rows in the same order, each once.
    const paged: Array<string> = []
    let after: string | null = null
    do {
      const page: ResultsPage = await results(`?limit=1${after ? `&after=${encodeURIComponent(after)}` : ""}`)
      expect(page.rows).toHaveLength(1)
      paged.push(page.rows[0]!.marketId)
      after = page.next
    } while (after !== null)
    expect(paged).toEqual(all.rows.map((row) => row.marketId))

    // A settlement more than 7 days old is no longer listed.
    await server.sql((sql) => sql`
      UPDATE market_results SET settled_at = now() - interval '8 days'
       WHERE market_id = (SELECT id FROM markets WHERE external_id = ${win.marketId})
    `)
    expect((await results()).rows.map((row) => row.marketId)).toEqual([matchOdds.marketId, second!.marketId, first!.marketId])
  })

  it("refuses a cursor it did not give, and a page size out of range, changing nothing", async () => {
    const bad = await request(server.url, "/api/v1/results?after=yesterday")
    expect(bad.status).toBe(400)
    expect(bad.body.meta).toMatchObject({ code: 400, error: "InvalidInput" })
    expect((await request(server.url, "/api/v1/results?limit=0")).status).toBe(400)
    expect((await request(server.url, "/api/v1/results?limit=51")).status).toBe(400)
  })
})
