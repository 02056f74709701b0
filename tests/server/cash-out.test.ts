import { Context, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { AutoCashOut } from "../../server/betting/AutoCashOut.ts"
import { connectSocket, request, signUpPlayer, useServer } from "./helpers.ts"
import { fund as deposit } from "./payments-support.ts"
import { balances, bet, catalogue, type CatalogueMarket, eventsOf, expectLedgerClean, freshMatch, fundedPlayer, marketOf, priceOf, setPrice, settleMarket } from "./betting-support.ts"

/**
 * Cash out through the API (server/betting/CashOut.ts): quotes from the ladder with its sizes, acceptance that
 * quotes again and writes the hedges as bets, refusals that write nothing. Prices move only when a test sets them
 * (the operator's manual price: an exchange side gets three levels a tick apart, each with the size given).
 */
process.env.ODDS_SIMULATOR = "off"

const server = useServer({ signIn: ["admin"] })
const used = new Set<string>()
/** A match the tests that leave its prices as they found them share (there are few fresh ones). */
let sharedMatch: CatalogueMarket | undefined

const price = async (market: CatalogueMarket, runner: number, back: number, lay: number, size = 100_000, status = "OPEN") => {
  const res = await setPrice(server, server.admin, { marketId: market.marketId, selectionId: market.runners[runner]!.selectionId, back: { price: back, size }, lay: { price: lay, size }, status })
  expect(res.status, JSON.stringify(res.body.meta)).toBe(200)
}

const quote = (token: string, marketId: string, fraction?: number | string) =>
  request(server.url, `/api/v1/cash-out/quote?marketId=${marketId}${fraction === undefined ? "" : `&fraction=${fraction}`}`, { token })
const cashOut = (token: string, json: Record<string, unknown>, key?: string) =>
  request(server.url, "/api/v1/cash-out", { method: "POST", token, json, ...(key ? { headers: { "idempotency-key": key } } : {}) })

const betsOf = (userId: string) =>
  server.sql((sql) => sql<{ id: string; side: string; cashOutQuote: string | null }>`SELECT id, side, cash_out_quote FROM bets WHERE user_id = ${userId} ORDER BY created_at, id`)

const eventOf = async (marketId: string) =>
  (await server.sql((sql) => sql<{ eventId: string }>`SELECT event_id FROM markets WHERE external_id = ${marketId}`))[0]!.eventId

type Level = { price: number; size: number }
/** A market's ladder as the players see it. */
const ladder = async (eventId: string, marketId: string) => {
  const markets = (await request(server.url, `/api/v1/event-odds?event_id=${eventId}`)).body.data.markets as Array<{ marketId: string; runners: Array<{ selectionId: string; back: Array<Level>; lay: Array<Level> }> }>
  return markets.find((m) => m.marketId === marketId)!.runners
}

/**
 * The issue's position: a fresh two-runner match, India (runner 0) backed for ₹1,000 at 2.50, then India priced
 * 1.80 / 1.82 (`laySize` rupees at 1.82 and at each tick above) and the other runner 2.10 / 2.20, so the lay hedge is
 * the better one.
 */
const backIndia = async (laySize = 100_000, shared = false) => {
  const market = shared ? (sharedMatch ??= (await freshMatch(server, used)).matchOdds) : (await freshMatch(server, used)).matchOdds
  expect(market.runners).toHaveLength(2)
  const p = await fundedPlayer(server, 5000)
  await price(market, 0, 2.5, 2.52)
  const placed = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2.5, stake: 1000 })
  expect(placed.body.data.bet.matches).toEqual([{ odds: 2.5, stake: 1000 }])
  await price(market, 1, 2.1, 2.2)
  await price(market, 0, 1.8, 1.82, laySize)
  return { market, p, india: market.runners[0]!.selectionId, other: market.runners[1]!.selectionId }
}

describe("quotes", () => {
  it("back ₹1,000 at 2.50, India now 1.80 / 1.82: a full cash out locks +373.62 / +373.63", async () => {
    const { market, p, india, other } = await backIndia(100_000, true)
    const res = await quote(p.token, market.marketId)
    expect(res.status, JSON.stringify(res.body.meta)).toBe(200)
    expect(res.body.data).toMatchObject({
      marketId: market.marketId,
      fraction: 1,
      value: 373.62,
      perRunner: [{ selectionId: india, before: 1500, after: 373.62 }, { selectionId: other, before: -1000, after: 373.63 }]
    })
    expect(Date.parse(res.body.data.expiresAt)).toBeGreaterThan(Date.now())
  })

  it("only ₹800 at 1.82: the hedge walks on to the next level (1.83), locking less (+370.49)", async () => {
    const { market, p } = await backIndia(800)
    // Lay India for 2,500 / odds in all: 800 at 1.82 (1,456) and 1,044 / 1.83 = 570.49 at 1.83; G = −1,000 + 1,370.49.
    expect((await quote(p.token, market.marketId)).body.data.value).toBe(370.49)
  })

  it("a part: half the hedge, half the position kept", async () => {
    const { market, p } = await backIndia(100_000, true)
    const half = await quote(p.token, market.marketId, 0.5)
    // India wins: 750 kept + 186.81 locked; the other: −500 kept + 186.81 (to a paisa).
    const after = half.body.data.perRunner.map((r: { after: number }) => r.after)
    expect(after[0]).toBeCloseTo(936.81, 1)
    expect(after[1]).toBeCloseTo(-313.19, 1)
    // Its value is what the half locks whatever wins: half of +373.62, not the whole position's worst case.
    expect(half.body.data.value).toBe(186.81)
    // Taken, the answer says the same.
    const taken = await cashOut(p.token, { marketId: market.marketId, fraction: 0.5, quoteId: half.body.data.quoteId }, "co-half")
    expect(taken.body.data).toMatchObject({ outcome: "cashedOut", fraction: 0.5, value: 186.81 })
  })

  it("nothing to cash out, a fancy market, bad input: tagged refusals", async () => {
    const { market: matchOdds } = await backIndia(100_000, true)
    const p = await fundedPlayer(server, 100)
    const none = await quote(p.token, matchOdds.marketId)
    expect([none.status, none.body.meta.error]).toEqual([422, "NothingToCashOut"])
    expect([(await quote(p.token, "no-such-market")).status]).toEqual([404])
    const [fancy] = await server.sql((sql) => sql<{ externalId: string }>`SELECT external_id FROM markets WHERE market_type = 'FANCY' LIMIT 1`)
    const refused = await quote(p.token, fancy!.externalId)
    expect([refused.status, refused.body.meta.error, refused.body.meta.message]).toEqual([422, "CashOutUnavailable", "Fancy markets cannot be cashed out."])
    for (const fraction of [0, 1.5, "half"]) expect((await quote(p.token, matchOdds.marketId, fraction)).body.meta.error).toBe("InvalidInput")
  })
})

describe("accepting a quote", () => {
  it("writes the hedge as a marked bet, flattens the position, takes the stake off the ladder; settles like any bet", async () => {
    const { market, p, india } = await backIndia()
    const quoted = (await quote(p.token, market.marketId)).body.data
    const res = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }, "co-1")
    expect(res.status, JSON.stringify(res.body.meta)).toBe(200)
    expect(res.body.data).toMatchObject({ outcome: "cashedOut", value: 373.62, marketExposure: 0, balance: 5000 })
    expect(res.body.data.bets).toMatchObject([{ selectionId: india, selectionType: "lay", matches: [{ odds: 1.82, stake: 1373.63 }], cashOut: true, status: "matched" }])
    expect(await balances(server, p.token)).toMatchObject({ balance: 5000, exposure: 0 })
    // Nothing left to cash out.
    expect((await quote(p.token, market.marketId)).body.meta.error).toBe("NothingToCashOut")
    // My Bets lists the hedge with its mark; the statement labels it.
    const mine = (await request(server.url, `/api/v1/bet-sport-byMarket?marketId=${market.marketId}`, { token: p.token })).body.data
    expect(mine.filter((b: { cashOut?: boolean }) => b.cashOut)).toHaveLength(1)
    const statement = (await request(server.url, "/api/v1/account-statement", { token: p.token })).body.data
    expect(statement.rows.map((r: { title: string }) => r.title)).toContain("Cash out")

    // India wins: +1,500 − 0.82 × 1,373.63 = +373.62 whatever wins.
    expect((await settleMarket(server, server.admin, market.marketId, india)).status).toBe(200)
    expect(await balances(server, p.token)).toMatchObject({ balance: 5373.62 })
    // Profit and loss names the cash out on the market's result.
    const results = (await request(server.url, "/api/v1/result-transaction", { token: p.token })).body.data
    expect(results.rows[0]).toMatchObject({ title: "Bet won", amount: 373.62 })
    expect(results.rows[0].description).toMatch(/\(cashed out\)$/)
    await expectLedgerClean(server)
  })

  it("the hedge's stakes come off the ladder the players see, like any matched bet's", async () => {
    // A match at the model's prices (a side priced by hand keeps its levels).
    const { matchOdds: market } = await freshMatch(server, used)
    const p = await fundedPlayer(server, 5000)
    const eventId = await eventOf(market.marketId)
    const runner = market.runners[0]!.selectionId
    const best = await priceOf(server, eventId, market.marketId, runner)
    expect((await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: best.back.price, stake: 100 })).status).toBe(200)
    // The back's own stake off the ladder first (told after it committed).
    await expect.poll(async () => (await priceOf(server, eventId, market.marketId, runner)).back).not.toEqual(best.back)
    const before = await ladder(eventId, market.marketId)
    const quoted = (await quote(p.token, market.marketId)).body.data
    const res = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId })
    expect(res.body.data.outcome).toBe("cashedOut")
    const expected = structuredClone(before)
    for (const hedge of res.body.data.bets as Array<{ selectionId: string; selectionType: "back" | "lay"; matches: Array<{ odds: number; stake: number }> }>) {
      const levels = expected.find((r) => r.selectionId === hedge.selectionId)![hedge.selectionType]
      for (const match of hedge.matches) {
        const level = levels.find((l) => l.price === match.odds)!
        level.size = Math.max(0, Math.round(level.size - match.stake))
      }
    }
    // A level taken whole is not shown.
    for (const r of expected) for (const side of ["back", "lay"] as const) r[side] = r[side].filter((l) => l.size > 0)
    await expect.poll(() => ladder(eventId, market.marketId)).toEqual(expected)
  })

  it("a replay with the same key gives the same answer and writes nothing more", async () => {
    const { market, p } = await backIndia(100_000, true)
    const quoted = (await quote(p.token, market.marketId)).body.data
    const body = { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }
    const first = await cashOut(p.token, body, "co-replay")
    const again = await cashOut(p.token, body, "co-replay")
    expect(again.body.data).toEqual(first.body.data)
    expect((await betsOf(p.user.id)).filter((b) => b.cashOutQuote)).toHaveLength(1)
  })

  it("20 cash outs of one position at once: exactly one is taken", async () => {
    const { market, p } = await backIndia(100_000, true)
    const quoted = (await quote(p.token, market.marketId)).body.data
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }, `co-race-${i}`)))
    expect(answers.filter((a) => a.status === 200 && a.body.data.outcome === "cashedOut")).toHaveLength(1)
    for (const a of answers.filter((a) => a.status !== 200)) expect(a.body.meta, JSON.stringify(a.body)).toMatchObject({ error: "NothingToCashOut" })
    expect((await betsOf(p.user.id)).filter((b) => b.cashOutQuote)).toHaveLength(1)
    await expectLedgerClean(server)
  })

  it("a value that fell beyond the tolerance: nothing written, the answer is the new quote", async () => {
    const { market, p } = await backIndia()
    const quoted = (await quote(p.token, market.marketId)).body.data
    await price(market, 0, 2.0, 2.04)
    const before = await balances(server, p.token)
    const res = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }, "co-drop")
    expect(res.status).toBe(200)
    expect(res.body.data.outcome).toBe("requoted")
    expect(res.body.data.quote.value).toBeLessThan(quoted.value - 1)
    expect(await betsOf(p.user.id)).toHaveLength(1)
    expect(await balances(server, p.token)).toEqual(before)
    // Accepting the new quote takes it.
    const taken = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: res.body.data.quote.quoteId }, "co-drop-2")
    expect(taken.body.data).toMatchObject({ outcome: "cashedOut", value: res.body.data.quote.value })
  })

  it("in play, waits out the bet delay and decides on the book of that moment: a fall meanwhile re-quotes", async () => {
    const event = eventsOf(await catalogue(server), "cricket", true)[0]!
    const market = marketOf(event, "EXCHANGE", "Match Odds")
    const p = await fundedPlayer(server, 5000)
    await price(market, 0, 2.5, 2.52)
    expect((await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2.5, stake: 1000 })).status).toBe(200)
    await price(market, 1, 2.1, 2.2)
    await price(market, 0, 1.8, 1.82)
    // A long delay for this event alone, so the price moves well inside it.
    const delay = 6
    await server.sql((sql) => sql`INSERT INTO bet_limits (event_id, min_stake, max_stake, in_play_delay_seconds) VALUES (${event._id}, 10000, 50000000, ${delay})`)
    const quoted = (await quote(p.token, market.marketId)).body.data
    const before = await balances(server, p.token)
    const started = Date.now()
    const pending = cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }, "co-delay")
    await price(market, 0, 2.0, 2.04)
    expect(Date.now() - started, "the price moved inside the delay").toBeLessThan(delay * 1000)
    const res = await pending
    expect(Date.now() - started).toBeGreaterThanOrEqual(delay * 1000)
    expect(res.body.data.outcome).toBe("requoted")
    expect(res.body.data.quote.value).toBeLessThan(quoted.value - 1)
    expect(await betsOf(p.user.id)).toHaveLength(1)
    expect(await balances(server, p.token)).toEqual(before)
    await server.sql((sql) => sql`DELETE FROM bet_limits WHERE event_id = ${event._id}`)
  })

  it("a player on a time-out cannot cash out: refused, nothing written", async () => {
    const { market, p } = await backIndia(100_000, true)
    const quoted = (await quote(p.token, market.marketId)).body.data
    expect((await request(server.url, "/api/v1/protection/time-out", { method: "POST", token: p.token, json: { days: 1 } })).status).toBe(200)
    const res = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }, "co-timeout")
    expect([res.status, res.body.meta.error]).toEqual([403, "TimedOut"])
    expect(await betsOf(p.user.id)).toHaveLength(1)
  })

  it("a bookmaker market hedges at its rate per 100: back India at 150, now 80 / 82, locks +373.62", async () => {
    const { bookmaker: market } = await freshMatch(server, used)
    const p = await fundedPlayer(server, 5000)
    const india = market.runners[0]!.selectionId
    await price(market, 0, 150, 152)
    expect((await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: india, selectionType: "back", odds: 150, stake: 1000 })).status).toBe(200)
    // The other runner at 110 / 120 per 100: its back hedge (2,500 / 2.10) locks less than the lay of India.
    await price(market, 1, 110, 120)
    await price(market, 0, 80, 82)
    const quoted = (await quote(p.token, market.marketId)).body.data
    expect(quoted.value).toBe(373.62)
    const res = await cashOut(p.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId })
    expect(res.body.data.bets).toMatchObject([{ selectionId: india, selectionType: "lay", marketType: "BOOKMAKER", matches: [{ odds: 82, stake: 1373.63 }], cashOut: true }])
    expect(await balances(server, p.token)).toMatchObject({ balance: 5000, exposure: 0 })
  })

  it("is no way to meet bonus wagering without risk: a back cashed out counts the loss it locked, not its stake", async () => {
    const player = await signUpPlayer(server)
    await deposit(server, player.token, 5000, server.admin)
    const bonuses = async () => (await request(server.url, "/api/v1/bonus-data", { token: player.token })).body.data.bonuses as Array<{ _id: string; wagered: number }>
    expect((await request(server.url, "/api/v1/activate-bonus", { method: "PUT", token: player.token, json: { bonusId: (await bonuses())[0]!._id } })).status).toBe(200)
    expect((await request(server.url, "/api/v1/wallet", { method: "PUT", token: player.token, json: { selectedWallet: 2 } })).status).toBe(200)
    const { matchOdds: market, bookmaker } = await freshMatch(server, used)
    await price(market, 0, 2, 2.02)
    const staked = await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 1000 })
    expect(staked.status).toBe(200)
    const quoted = (await quote(player.token, market.marketId)).body.data
    const res = await cashOut(player.token, { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId })
    expect(res.body.data.outcome).toBe("cashedOut")
    const locked = res.body.data.value as number
    expect(locked).toBeLessThan(0)
    expect((await settleMarket(server, server.admin, market.marketId, market.runners[1]!.selectionId)).status).toBe(200)
    expect((await settleMarket(server, server.admin, bookmaker.marketId, bookmaker.runners[1]!.selectionId)).status).toBe(200)
    // ₹1,000 backed plus the hedge staked; what was at risk once cashed out is the loss locked, and only that counts.
    expect((await bonuses())[0]!.wagered).toBe(-locked)
  })

  it("a suspended market, a forged or someone else's quote, a fraction not quoted: refused, nothing changed", async () => {
    const { market, p } = await backIndia()
    const quoted = (await quote(p.token, market.marketId)).body.data
    const body = { marketId: market.marketId, fraction: 1, quoteId: quoted.quoteId }
    const other = await fundedPlayer(server, 100)
    const before = await balances(server, p.token)
    const refused = [
      await cashOut(other.token, body),
      await cashOut(p.token, { ...body, fraction: 0.5 }),
      await cashOut(p.token, { ...body, quoteId: `${quoted.quoteId.slice(0, -2)}xx` }),
      await cashOut(p.token, { ...body, fraction: 0 })
    ]
    expect(refused.map((r) => [r.status, r.body.meta.error])).toEqual(Array(4).fill([400, "InvalidInput"]))
    await price(market, 0, 1.8, 1.82, 100_000, "SUSPENDED")
    const suspended = await cashOut(p.token, body, "co-suspended")
    expect([suspended.status, suspended.body.meta.error]).toEqual([422, "MarketSuspended"])
    expect((await quote(p.token, market.marketId)).body.meta.error).toBe("MarketSuspended")
    expect(await betsOf(p.user.id)).toHaveLength(1)
    expect(await balances(server, p.token)).toEqual(before)
  })
})

describe("auto cash out", () => {
  const setRule = (token: string, json: Record<string, unknown>) => request(server.url, "/api/v1/cash-out/auto", { method: "PUT", token, json })
  const hedges = async (userId: string) => (await betsOf(userId)).filter((b) => b.cashOutQuote)

  it("takes profit once the value reaches the target, once, and tells the player", async () => {
    const { market, p } = await backIndia(100_000, true)
    // Worth +373.62 now: a target of +400 waits.
    const set = await setRule(p.token, { marketId: market.marketId, target: 400, floor: -200 })
    expect(set.body.data).toEqual([{ marketId: market.marketId, target: 400, floor: -200 }])
    await server.run(AutoCashOut.use((auto) => auto.sweep))
    expect(await hedges(p.user.id)).toHaveLength(0)
    const socket = await connectSocket(server.url, p.token)
    const told: Array<string> = []
    socket.on(p.user.id, (payload: { message?: string }) => payload.message && told.push(payload.message))
    // India in to 1.60 / 1.62: laying it alone would lock −1,000 + 2,500 / 1.62 = +543.21.
    await price(market, 0, 1.6, 1.62)
    await expect.poll(() => hedges(p.user.id)).toHaveLength(1)
    await expect.poll(() => told).toHaveLength(1)
    const locked = /^Auto cash out on (.+): \+([\d,.]+) whatever wins$/.exec(told[0]!)
    expect(locked?.[1]).toBe(market.name)
    expect(Number(locked![2]!.replace(/,/g, ""))).toBeGreaterThanOrEqual(543.21)
    socket.close()
    await server.run(AutoCashOut.use((auto) => auto.sweep))
    expect(await hedges(p.user.id)).toHaveLength(1)
    expect((await request(server.url, "/api/v1/cash-out/auto", { token: p.token })).body.data).toEqual([])
    expect((await quote(p.token, market.marketId)).body.meta.error).toBe("NothingToCashOut")
  })

  it("stops a loss at the floor", async () => {
    const { market, p } = await backIndia(100_000, true)
    await setRule(p.token, { marketId: market.marketId, target: null, floor: 0 })
    await server.run(AutoCashOut.use((auto) => auto.sweep))
    expect(await hedges(p.user.id)).toHaveLength(0)
    // India out to 2.60 / 2.62: laying it locks −1,000 + 2,500 / 2.62 = −45.80, below the floor of 0.
    await price(market, 0, 2.6, 2.62)
    await expect.poll(() => hedges(p.user.id)).toHaveLength(1)
    expect(await balances(server, p.token)).toMatchObject({ exposure: -45.8 })
  })

  it("fires once when two servers' watchers find it due at the same moment", async () => {
    const { market, p } = await backIndia(100_000, true)
    // Due already (worth +373.62, target +300), written as a rule without the server's own look at it.
    await server.sql((sql) => sql`
      INSERT INTO cash_out_rules (user_id, market_id, target) SELECT ${p.user.id}, id, 30000 FROM markets WHERE external_id = ${market.marketId}
    `)
    await server.run(Effect.scoped(Effect.gen(function*() {
      const mine = yield* AutoCashOut
      const other = Context.get(yield* Layer.build(AutoCashOut.layer), AutoCashOut)
      yield* Effect.all([mine.sweep, other.sweep, mine.sweep, other.sweep], { concurrency: "unbounded" })
    })))
    await expect.poll(() => hedges(p.user.id)).toHaveLength(1)
    await server.run(AutoCashOut.use((auto) => auto.sweep))
    expect(await hedges(p.user.id)).toHaveLength(1)
    await expectLedgerClean(server)
  })

  it("refuses a floor at or above the target, odd amounts and fancy markets; null and null removes the rule", async () => {
    const { market, p } = await backIndia(100_000, true)
    for (const json of [{ target: 100, floor: 100 }, { target: 1.234, floor: null }]) {
      const res = await setRule(p.token, { marketId: market.marketId, ...json })
      expect([res.status, res.body.meta.error]).toEqual([400, "InvalidInput"])
    }
    const [fancy] = await server.sql((sql) => sql<{ externalId: string }>`SELECT external_id FROM markets WHERE market_type = 'FANCY' AND status = 'OPEN' LIMIT 1`)
    expect((await setRule(p.token, { marketId: fancy!.externalId, target: 100, floor: null })).body.meta.error).toBe("CashOutUnavailable")
    expect((await setRule(p.token, { marketId: market.marketId, target: 1000, floor: null })).body.data).toHaveLength(1)
    const removed = await setRule(p.token, { marketId: market.marketId, target: null, floor: null })
    expect([removed.body.meta.message, removed.body.data]).toEqual(["Auto cash out removed", []])
  })
})
