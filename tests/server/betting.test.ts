import { Effect, Fiber, Schedule } from "effect"
import { readFileSync } from "node:fs"
import { io } from "socket.io-client"
import { beforeAll, describe, expect, it } from "vitest"
import { DECISIONS } from "../../server/betting/Betting.ts"
import { loginAs, request, useServer } from "./helpers.ts"
import {
  balances,
  bet,
  catalogue,
  type CatalogueEvent,
  type CatalogueSport,
  eventsOf,
  expectLedgerClean,
  fund,
  fundedPlayer,
  marketOf,
  priceOf,
  setPrice
} from "./betting-support.ts"
import { setLimit } from "./protection-support.ts"
import { agentToken } from "./desk-support.ts"

// Prices stay where they are unless a test moves them; events neither start nor finish.
process.env.ODDS_SIMULATOR = "off"

const server = useServer({ signIn: ["admin"] })
let sports: Array<CatalogueSport>
let match: CatalogueEvent
let live: CatalogueEvent

const player = (rupees: number) => fundedPlayer(server, rupees)

beforeAll(async () => {
  sports = await catalogue(server)
  match = eventsOf(sports, "cricket", false)[0]!
  live = eventsOf(sports, "cricket", true)[0]!
})

/** Fixes a runner's price so a test knows what it will be matched at. */
const fix = async (event: CatalogueEvent, type: "EXCHANGE" | "BOOKMAKER", selection: number, back: number, lay: number) => {
  const market = marketOf(event, type)
  const res = await setPrice(server, server.admin, {
    marketId: market.marketId,
    selectionId: market.runners[selection]!.selectionId,
    back: { price: back, size: 1000 },
    lay: { price: lay, size: 1000 },
    status: "OPEN"
  })
  expect(res.status).toBe(200)
  return market
}

describe("limits and preferences", () => {
  it("serves the limits that apply and the player's betting settings, each changed on its own", async () => {
    const p = await player(0)
    const res = await request(server.url, `/api/v1/setting?eventId=${match._id}`, { token: p.token })
    expect(res.body.data).toEqual({ minStake: 100, maxStake: 500000, betDelay: 2, oddsChange: "better", oneClick: null })
    const put = await request(server.url, "/api/v1/setting", { method: "PUT", token: p.token, json: { oddsChange: "any" } })
    expect(put.body.data).toMatchObject({ oddsChange: "any", oneClick: null })
    const oneClick = await request(server.url, "/api/v1/setting", { method: "PUT", token: p.token, json: { oneClick: 500 } })
    expect(oneClick.body.meta.message).toBe("One-click betting is on: a click on a price places ₹500.00")
    expect((await request(server.url, "/api/v1/setting", { token: p.token })).body.data).toMatchObject({ oddsChange: "any", oneClick: 500 })
    const off = await request(server.url, "/api/v1/setting", { method: "PUT", token: p.token, json: { oneClick: null, oddsChange: "better" } })
    expect(off.body.data).toMatchObject({ oddsChange: "better", oneClick: null })
    expect((await request(server.url, "/api/v1/setting", { method: "PUT", token: p.token, json: { oneClick: 10.001 } })).status).toBe(400)
    expect((await request(server.url, "/api/v1/setting")).status).toBe(401)
  })

  it("lists an event's fancy lines, its live prices and the racing hierarchy", async () => {
    const fancies = await request(server.url, `/api/v1/admin/get-active-fanies-of-event?event_id=${match._id}`)
    expect(fancies.status).toBe(200)
    expect(fancies.body.data.length).toBeGreaterThan(0)
    expect(fancies.body.data[0]).toMatchObject({ name: expect.stringContaining("Over Runs"), yes: { price: expect.any(Number), size: 100 } })
    const odds = await request(server.url, `/api/v1/event-odds?event_id=${match._id}`)
    expect(odds.body.data.markets.map((m: { marketType: string }) => m.marketType)).toEqual(expect.arrayContaining(["EXCHANGE", "BOOKMAKER", "FANCY"]))
    const exchange = odds.body.data.markets.find((m: { marketType: string }) => m.marketType === "EXCHANGE")
    expect(exchange.runners[0].back).toHaveLength(3)
    expect(exchange.runners[0].back[0].price).toBeLessThan(exchange.runners[0].lay[0].price)
    const racing = await request(server.url, "/api/v1/racing")
    const horses = racing.body.data.find((s: { slugName: string }) => s.slugName === "horse-racing")
    expect(horses.countries.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(["GB", "IE", "AU", "IN"]))
    expect(horses.countries[0].tracks[0].events[0].markets[0].runners.length).toBe(8)
    const authed = await request(server.url, "/api/v1/get-sports-data-authenticate", { token: (await player(0)).token })
    expect(authed.body.data.length).toBe(sports.length)
  })
})

describe("placing bets", () => {
  it("backs on the exchange: holds the stake as exposure, shows the bet and the event on the user", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 0, 2.5, 2.52)
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2.5, stake: 200 })
    expect(res.status).toBe(200)
    expect(res.body.meta.message).toBe("Matched ₹200.00 at 2.50")
    expect(res.body.data.bet).toMatchObject({
      selection: market.runners[0]!.name, selectionType: "back", odds: 2.5, stake: 200, liability: 200, marketType: "EXCHANGE",
      status: "matched", matched: 200, matches: [{ odds: 2.5, stake: 200 }], unmatched: 0, persistence: "cancel"
    })
    expect(res.body.data.marketExposure).toBe(200)
    const user = await balances(server, p.token)
    expect(user.balance).toBe(1000)
    expect(user.exposure).toBe(-200)
    expect(user.bets.map((b) => b.eventId._id)).toContain(match._id)
    const mine = await request(server.url, `/api/v1/bet-sport-byMarket?marketId=${market.marketId}`, { token: p.token })
    expect(mine.body.data).toHaveLength(1)
    expect(mine.body.data[0].eventId).toMatchObject({ _id: match._id, slugName: match.slugName })
    await expectLedgerClean(server)
  })

  it("lays: holds the liability (odds - 1) x stake", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 1, 3, 3.05)
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[1]!.selectionId, selectionType: "lay", odds: 3.05, stake: 200 })
    expect(res.status).toBe(200)
    expect(res.body.data.bet).toMatchObject({ selectionType: "lay", odds: 3.05, stake: 200, liability: 410 })
    expect((await balances(server, p.token)).exposure).toBe(-410)
    await expectLedgerClean(server)
  })

  it("accepts a bet that reduces risk even with nothing left to stake", async () => {
    const p = await player(100)
    const market = await fix(match, "EXCHANGE", 0, 2, 2.02)
    const runner = market.runners[0]!.selectionId
    expect((await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 2, stake: 100 })).status).toBe(200)
    expect((await balances(server, p.token)).exposure).toBe(-100)
    await fix(match, "EXCHANGE", 0, 1.98, 2)
    const hedge = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "lay", odds: 2, stake: 100 })
    expect(hedge.status).toBe(200)
    expect(hedge.body.data.marketExposure).toBe(0)
    const user = await balances(server, p.token)
    expect(user.exposure).toBe(0)
    expect(user.balance).toBe(100)
    await expectLedgerClean(server)
  })

  it("bookmaker: a back wins odds/100 x stake; fancy: Yes wins stake x size/100", async () => {
    const p = await player(2000)
    const book = await fix(eventsOf(sports, "cricket", false)[5]!, "BOOKMAKER", 0, 80, 82)
    const res = await bet(server, p.token, "bet-sport", { marketId: book.marketId, selectionId: book.runners[0]!.selectionId, selectionType: "lay", odds: 82, stake: 500 })
    expect(res.status).toBe(200)
    expect(res.body.data.bet).toMatchObject({ marketType: "BOOKMAKER", liability: 410 })
    const fancy = marketOf(match, "FANCY")
    await setPrice(server, server.admin, { marketId: fancy.marketId, back: { price: 50, size: 90 }, lay: { price: 49, size: 100 }, status: "OPEN" })
    const yes = await bet(server, p.token, "fancy-bet-sport", { marketId: fancy.marketId, selectionId: fancy.runners[0]!.selectionId, selectionType: "back", odds: 50, size: 90, stake: 300 })
    expect(yes.status).toBe(200)
    expect(yes.body.data.bet).toMatchObject({ marketType: "FANCY", odds: 50, oddsSize: 90, stake: 300, liability: 300 })
    expect((await balances(server, p.token)).exposure).toBe(-710)
    await expectLedgerClean(server)
  })

  it("racing markets take bets through bet-racing only", async () => {
    const p = await player(1000)
    const race = (await request(server.url, "/api/v1/racing")).body.data[0].countries[0].tracks[0].events[0]
    const market = race.markets[0]
    const runner = market.runners[0].selectionId
    const price = await priceOf(server, race._id, market.marketId, runner)
    const wrong = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: price.back.price, stake: 100 })
    expect(wrong.status).toBe(422)
    expect(wrong.body.meta.message).toBe("Racing markets take bets through bet-racing.")
    const ok = await bet(server, p.token, "bet-racing", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: price.back.price, stake: 100 })
    expect(ok.status).toBe(200)
  })

  it("waits out the in-play bet delay before accepting", async () => {
    const p = await player(1000)
    const market = await fix(live, "EXCHANGE", 0, 1.8, 1.82)
    const started = Date.now()
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 1.8, stake: 100 })
    expect(res.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    // The bet is decided by a read taken after the delay: its time is that moment's.
    expect(new Date(res.body.data.bet.createdAt).getTime()).toBeGreaterThanOrEqual(started + 2000)
  })

  it("replays an Idempotency-Key with the first answer and moves money once", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 0, 2.5, 2.52)
    const body = { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2.5, stake: 300 }
    const first = await bet(server, p.token, "bet-sport", body, "slip-1")
    const again = await bet(server, p.token, "bet-sport", body, "slip-1")
    expect(again.body.data).toEqual(first.body.data)
    // The stored answer (written before the bet's row comes back) names the bet as stored.
    const [stored] = await server.sql((sql) => sql<{ createdAt: Date }>`SELECT created_at FROM bets WHERE id = ${first.body.data.bet._id}`)
    expect(stored!.createdAt.toISOString()).toBe(first.body.data.bet.createdAt)
    expect((await balances(server, p.token)).exposure).toBe(-300)
    const other = await bet(server, p.token, "bet-sport", { ...body, stake: 400 }, "slip-1")
    expect(other.status).toBe(409)
    // A refused bet leaves no record of its key: the same key may be used again.
    const refused = await bet(server, p.token, "bet-sport", { ...body, stake: 5000 }, "slip-2")
    expect(refused.body.meta).toMatchObject({ code: 422, message: "Insufficient balance to place this bet.", error: "InsufficientBalance" })
    expect(await server.sql((sql) => sql`SELECT key FROM idempotency_keys WHERE key = 'slip-2'`)).toEqual([])
    expect((await bet(server, p.token, "bet-sport", { ...body, stake: 100 }, "slip-2")).status).toBe(200)
    await expectLedgerClean(server)
  })
})

describe("rejections carry a clear message and move nothing", () => {
  it("refuses every rule the server checks", async () => {
    const p = await player(500)
    const market = await fix(match, "EXCHANGE", 0, 2, 2.02)
    const runner = market.runners[0]!.selectionId
    const fancy = marketOf(match, "FANCY")
    // Another event's (the price model refuses rates that would contradict this one's exchange prices).
    const bookmaker = await fix(eventsOf(sports, "cricket", false).at(-1)!, "BOOKMAKER", 0, 98, 102)
    const base = { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 2, stake: 100 }
    type Answer = Promise<{ status: number; body: { meta: { code: number; message: string; error?: string } } }>
    const cases: Array<[string, Answer, number, string | RegExp, string]> = [
      ["no session", request(server.url, "/api/v1/bet-sport", { method: "POST", json: base }), 401, /session/, "SessionEnded"],
      ["unknown market", bet(server, p.token, "bet-sport", { ...base, marketId: "1.nope" }), 404, "This market is not available.", "NotFound"],
      ["unknown selection", bet(server, p.token, "bet-sport", { ...base, selectionId: "nope" }), 422, "That selection is not part of this market.", "Refused"],
      ["fancy through bet-sport", bet(server, p.token, "bet-sport", { ...base, marketId: fancy.marketId, selectionId: fancy.runners[0]!.selectionId }), 422, "Fancy markets take bets through fancy-bet-sport.", "Refused"],
      ["exchange through fancy-bet-sport", bet(server, p.token, "fancy-bet-sport", base), 422, "This is not a fancy market.", "Refused"],
      ["odds off the ladder", bet(server, p.token, "bet-sport", { ...base, odds: 1 }), 400, "Those odds are not valid for this market.", "InvalidInput"],
      ["three decimals of stake", bet(server, p.token, "bet-sport", { ...base, stake: 100.001 }), 400, "Stake must be an amount in rupees with at most two decimals.", "InvalidInput"],
      ["below the minimum", bet(server, p.token, "bet-sport", { ...base, stake: 99 }), 422, "Minimum stake is ₹100.00.", "StakeOutOfRange"],
      ["above the maximum", bet(server, p.token, "bet-sport", { ...base, stake: 500001 }), 422, "Maximum stake is ₹5,00,000.00.", "StakeOutOfRange"],
      ["more than the balance", bet(server, p.token, "bet-sport", { ...base, stake: 600 }), 422, "Insufficient balance to place this bet.", "InsufficientBalance"],
      ["a bookmaker rate that moved", bet(server, p.token, "bet-sport", { ...base, marketId: bookmaker.marketId, selectionId: bookmaker.runners[0]!.selectionId, odds: 99 }), 422, "Odds changed. Please check the new price and place your bet again.", "OddsChanged"],
      ["a bad payload", bet(server, p.token, "bet-sport", { ...base, selectionType: "sideways" }), 400, /selectionType/, "InvalidInput"],
      // Staff have no session on the player site at all; an agent's account is an operator's that does.
      ["an operator account", bet(server, await agentToken(server), "bet-sport", base), 422, "Only player accounts can place bets.", "Refused"]
    ]
    for (const [label, pending, status, message, reason] of cases) {
      const res = await pending
      expect(res.status, label).toBe(status)
      expect(res.body.meta.code, label).toBe(status)
      expect(res.body.meta.error, label).toBe(reason)
      if (typeof message === "string") expect(res.body.meta.message, label).toBe(message)
      else expect(res.body.meta.message, label).toMatch(message)
    }
    const user = await balances(server, p.token)
    expect(user).toMatchObject({ balance: 500, exposure: 0, bets: [] })
    await expectLedgerClean(server)
  })

  it("refuses a suspended market; an exchange price that moved waits, a bookmaker rate that moved is refused unless the bet takes the best price", async () => {
    const p = await player(1000)
    const market = marketOf(match, "EXCHANGE")
    const runner = market.runners[0]!.selectionId
    await setPrice(server, server.admin, { marketId: market.marketId, selectionId: runner, status: "SUSPENDED" })
    const suspended = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 2, stake: 100 })
    expect(suspended.status).toBe(422)
    expect(suspended.body.meta.message).toBe("This market is suspended. Please try again when it reopens.")
    await fix(match, "EXCHANGE", 0, 1.9, 1.92)
    const worse = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 2, stake: 100 })
    expect(worse.status).toBe(200)
    expect(worse.body.meta.message).toBe("Waiting at 2.00")
    expect(worse.body.data.bet).toMatchObject({ odds: 2, status: "unmatched", matched: 0, unmatched: 100 })
    // A better price is matched at that better price.
    const better = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 1.85, stake: 100 })
    expect(better.body.data.bet).toMatchObject({ odds: 1.85, status: "matched", matches: [{ odds: 1.9, stake: 100 }] })
    // The best available price: matched at what is on offer.
    const any = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: runner, selectionType: "back", odds: 2, stake: 100, bestPrice: true })
    expect(any.body.meta.message).toBe("Matched ₹100.00 at 1.90")
    // A bookmaker's rate is fixed: a moved one is refused, unless the bet takes the best price, and nothing waits.
    const bookmaker = await fix(eventsOf(sports, "cricket", false).at(-2)!, "BOOKMAKER", 0, 88, 92)
    const body = { marketId: bookmaker.marketId, selectionId: bookmaker.runners[0]!.selectionId, selectionType: "back", odds: 95, stake: 100 }
    expect((await bet(server, p.token, "bet-sport", body)).body.meta).toMatchObject({ code: 422, error: "OddsChanged" })
    const taken = await bet(server, p.token, "bet-sport", { ...body, bestPrice: true })
    expect(taken.body.data.bet).toMatchObject({ odds: 95, status: "matched", matches: [{ odds: 88, stake: 100 }], unmatched: 0 })
    await expectLedgerClean(server)
  })
})

describe("an operator's manual price", () => {
  it("is refused off the exchange ladder or out of bounds, and the book stays as it was", async () => {
    const market = await fix(match, "EXCHANGE", 1, 3, 3.05)
    const runner = market.runners[1]!.selectionId
    const before = await priceOf(server, match._id, market.marketId, runner)
    const offLadder = await setPrice(server, server.admin, { marketId: market.marketId, selectionId: runner, lay: { price: 0.5, size: 100 } })
    expect(offLadder.status).toBe(422)
    expect(offLadder.body.meta.message).toBe("Exchange prices run from 1.01 to 1000.")
    for (const level of [{ price: -1.7e308, size: 100 }, { price: 1001, size: 100 }, { price: 2, size: -1 }]) {
      const absurd = await setPrice(server, server.admin, { marketId: market.marketId, selectionId: runner, back: level })
      expect(absurd.status, JSON.stringify(level)).toBeGreaterThanOrEqual(400)
      expect(absurd.status, JSON.stringify(level)).toBeLessThan(500)
      expect(absurd.body.data).toBeNull()
    }
    expect(await priceOf(server, match._id, market.marketId, runner)).toEqual(before)
  })

  it("is refused when it would let a player win whatever happens across the event's markets, and nothing changes", async () => {
    const event = eventsOf(sports, "cricket", false)[6]!
    const exchange = await fix(event, "EXCHANGE", 0, 2, 2.02)
    const bookmaker = marketOf(event, "BOOKMAKER")
    const away = bookmaker.runners[1]!.selectionId
    const before = await priceOf(server, event._id, bookmaker.marketId, away)
    // Home backed at 2.00 on the exchange and away at 2.50 with the bookmaker: 0.50 + 0.40 of the stake back either way.
    const res = await setPrice(server, server.admin, { marketId: bookmaker.marketId, selectionId: away, back: { price: 150, size: 1000 }, status: "OPEN" })
    expect(res.status).toBe(422)
    expect(res.body.meta).toMatchObject({ code: 422, error: "PricesContradict" })
    expect(res.body.meta.message).toMatch(/^That price contradicts the event's other prices: .* A player could win whatever happens\.$/)
    expect(res.body.data).toBeNull()
    expect(await priceOf(server, event._id, bookmaker.marketId, away)).toEqual(before)
    // The bookmaker follows the exchange's price: away no better than evens, home no better than 2.00.
    const odds = (await request(server.url, `/api/v1/event-odds?event_id=${event._id}`)).body.data
    const book = odds.markets.find((m: { marketId: string }) => m.marketId === bookmaker.marketId)
    expect(book.runners[0].back[0]?.price ?? 0).toBeLessThanOrEqual(100)
    expect(book.runners[1].back[0]?.price ?? 0).toBeLessThanOrEqual(100)
    expect(odds.markets.find((m: { marketId: string }) => m.marketId === exchange.marketId).runners[0].back[0].price).toBe(2)
  })
})

describe("wallets", () => {
  it("bets from the bonus wallet hold bonus exposure, and the market stays in that wallet", async () => {
    const p = await player(0)
    await fund(server, p.user.id, 50_000, "bonus")
    await server.sql((sql) => sql`UPDATE users SET wallet = 2 WHERE id = ${p.user.id}`)
    const event = eventsOf(sports, "football", false)[1]!
    const market = await fix(event, "EXCHANGE", 0, 2, 2.02)
    const res = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 200 })
    expect(res.status).toBe(200)
    const held = await server.sql((sql) => sql<{ kind: string; balance: bigint }>`
      SELECT kind, balance FROM ledger_accounts WHERE user_id = ${p.user.id} ORDER BY kind
    `)
    expect(Object.fromEntries(held.map((row) => [row.kind, Number(row.balance)]))).toMatchObject({ bonus: 30_000, bonus_exposure: 20_000 })
    // Back on the main wallet, the same market keeps holding in the bonus wallet.
    await server.sql((sql) => sql`UPDATE users SET wallet = 1 WHERE id = ${p.user.id}`)
    expect((await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 100 })).status).toBe(200)
    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.runners[1]!.selectionId } })
    expect(settled.status).toBe(200)
    const after = await server.sql((sql) => sql<{ kind: string; balance: bigint }>`SELECT kind, balance FROM ledger_accounts WHERE user_id = ${p.user.id}`)
    expect(Object.fromEntries(after.map((row) => [row.kind, Number(row.balance)]))).toMatchObject({ bonus: 20_000, bonus_exposure: 0 })
    await expectLedgerClean(server)
  })

  it("a credit player bets against their credit", async () => {
    const credit = await loginAs(server, "credit")
    const market = await fix(eventsOf(sports, "tennis", false)[1]!, "EXCHANGE", 0, 1.5, 1.52)
    const before = await balances(server, credit.token)
    const res = await bet(server, credit.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "lay", odds: 1.52, stake: 1000 })
    expect(res.status).toBe(200)
    const after = await balances(server, credit.token)
    expect(after.exposure).toBe(before.exposure - 520)
    expect(after.balance).toBe(before.balance)
    await expectLedgerClean(server)
  })
})

describe("concurrency", () => {
  it("of many bets that together exceed the balance, exactly the affordable ones succeed", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 1, 2.5, 2.52)
    const body = { marketId: market.marketId, selectionId: market.runners[1]!.selectionId, selectionType: "back", odds: 2.5, stake: 200 }
    const results = await Promise.all(Array.from({ length: 12 }, () => bet(server, p.token, "bet-sport", body)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(5)
    expect(results.filter((r) => r.status === 422).every((r) => r.body.meta.message === "Insufficient balance to place this bet.")).toBe(true)
    expect(results.filter((r) => r.status !== 200 && r.status !== 422)).toEqual([])
    const user = await balances(server, p.token)
    expect(user.exposure).toBe(-1000)
    // Each bet read the position its predecessor committed (the read comes after the lock it waited on): the
    // market holds what the five bets can lose, as the ledger does.
    const held = await server.sql((sql) => sql`SELECT me.exposure::int AS exposure FROM market_exposures me JOIN markets m ON m.id = me.market_id WHERE m.external_id = ${market.marketId} AND me.user_id = ${p.user.id}`)
    expect(held).toEqual([{ exposure: 100_000 }])
    await expectLedgerClean(server)
  })

  it("one Idempotency-Key sent ten times at once places one bet, and every copy gets its answer", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 0, 2.5, 2.52)
    const body = { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2.5, stake: 300 }
    const answers = await Promise.all(Array.from({ length: 10 }, () => bet(server, p.token, "bet-sport", body, "double-tap")))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1)
    expect(await server.sql((sql) => sql`SELECT id FROM bets WHERE user_id = ${p.user.id}`)).toEqual([{ id: answers[0]!.body.data.bet._id }])
    expect((await balances(server, p.token)).exposure).toBe(-300)
    await expectLedgerClean(server)
  })

  // A bet is decided from a read taken before any lock and written by one statement that checks, after the
  // player's lock, that what it was decided on is unchanged (server/betting/Betting.ts). Here a time-out commits
  // while the bet's write waits for that lock: the write must write nothing and the bet be decided again, refused.
  it.runIf(process.env.DATABASE_URL)("a bet whose player takes a time-out while its write waits for their lock is decided again and refused", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 0, 2, 2.02)
    const body = { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 100 }
    const answer = await server.sql((sql) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT 1 FROM users WHERE id = ${p.user.id} FOR NO KEY UPDATE`
        const placing = Effect.promise(() => bet(server, p.token, "bet-sport", body, "decided-twice"))
        const pending = yield* Effect.forkChild(placing)
        // The real condition: the bet's write is waiting for the lock this transaction holds.
        const waiting = sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%bet_inputs_unchanged%'`
        yield* sql`SELECT pg_stat_clear_snapshot()`.pipe(
          Effect.andThen(waiting),
          Effect.flatMap(([row]) => (row!.n > 0 ? Effect.void : Effect.fail("not waiting yet"))),
          Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 1500 })
        )
        yield* sql`UPDATE player_protection SET time_out_started_at = now(), time_out_until = now() + interval '1 day' WHERE user_id = ${p.user.id}`
        return pending
      })).pipe(Effect.flatMap(Fiber.join))
    )
    expect(answer.status).toBe(403)
    expect(answer.body.meta.message).toMatch(/^You are taking a break until /)
    // Nothing of the first decision was written: no bet, no key record, no money held.
    expect(await server.sql((sql) => sql`SELECT id FROM bets WHERE user_id = ${p.user.id}`)).toEqual([])
    expect(await server.sql((sql) => sql`SELECT key FROM idempotency_keys WHERE user_id = ${p.user.id}`)).toEqual([])
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: 0 })
    await expectLedgerClean(server)
  })

  // The bound on decisions (DECISIONS): here every write finds its inputs changed, as if another write of the
  // player's landed each time. The check itself is swapped for one that always refuses, and counts, for this test.
  it("a bet whose inputs change at every write is decided DECISIONS times, then refused with 409, moving nothing", async () => {
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 0, 2, 2.02)
    const body = { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 100 }
    // The check as the migrations define it, put back afterwards.
    const [{ definition }] = (await server.sql((sql) => sql<{ definition: string }>`SELECT pg_get_functiondef('bet_inputs_unchanged(boolean)'::regprocedure) AS definition`)) as [{ definition: string }]
    await server.sql((sql) => sql`CREATE SEQUENCE test_bet_decisions`)
    await server.sql((sql) => sql.unsafe(`
      CREATE OR REPLACE FUNCTION bet_inputs_unchanged(p_same boolean) RETURNS boolean AS $$
      BEGIN
        PERFORM nextval('test_bet_decisions');
        RAISE EXCEPTION 'bet inputs changed since they were read' USING ERRCODE = 'serialization_failure';
      END;
      $$ LANGUAGE plpgsql VOLATILE`))
    const answer = await bet(server, p.token, "bet-sport", body, "never-unchanged").finally(() => server.sql((sql) => sql.unsafe(definition)))
    expect(answer.status).toBe(409)
    expect(answer.body.meta.message).toBe("Your account changed while this bet was being placed. Please place it again.")
    // A failed nextval is not rolled back: the sequence counts every write that was tried.
    expect(await server.sql((sql) => sql`SELECT last_value::int AS n FROM test_bet_decisions`)).toEqual([{ n: DECISIONS }])
    expect(await server.sql((sql) => sql`SELECT id FROM bets WHERE user_id = ${p.user.id}`)).toEqual([])
    expect(await server.sql((sql) => sql`SELECT key FROM idempotency_keys WHERE user_id = ${p.user.id}`)).toEqual([])
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: 0 })
    // The check restored, the same bet is placed at once.
    expect((await bet(server, p.token, "bet-sport", body, "never-unchanged")).status).toBe(200)
    await server.sql((sql) => sql`DROP SEQUENCE test_bet_decisions`)
    await expectLedgerClean(server)
  })

  // Migration 0083 reads bet_inputs in one query. A server of the previous release may read a bet's inputs and
  // this one write it (or the other way round) during a rolling restart: both must give the same fingerprint.
  it("bet_inputs in one query reads what 0081's read, fingerprint included", async () => {
    const old = readFileSync(new URL("../../server/db/migrations/0081_bet_in_one_statement.sql", import.meta.url), "utf8")
    // The open bets as 0110 lists them (what waits and the matched parts), the rest as 0081 read it.
    const definitions = [...old.matchAll(/CREATE (?:OR REPLACE )?FUNCTION (?:protection_rules|bet_position|bet_inputs)\(.*?\$\$ LANGUAGE plpgsql VOLATILE;/gs)].map(([text]) =>
      text.replace(/\b(protection_rules|bet_position|bet_inputs)\(/g, "test_0081_$1(").replace(/^CREATE FUNCTION/, "CREATE OR REPLACE FUNCTION")
        .replace("'stake', b.stake)", "'stake', b.stake, 'unmatched', b.unmatched, 'matches', b.matches)")
    )
    expect(definitions).toHaveLength(3)
    for (const definition of definitions) await server.sql((sql) => sql.unsafe(definition))
    const p = await player(1000)
    const market = await fix(match, "EXCHANGE", 1, 2, 2.02)
    const [{ id: marketId }] = (await server.sql((sql) => sql<{ id: string }>`SELECT id FROM markets WHERE external_id = ${market.marketId}`)) as [{ id: string }]
    const both = async (market: string) => {
      const read = (fn: "bet_inputs" | "test_0081_bet_inputs") =>
        server.sql((sql) => sql.unsafe(`SELECT * FROM ${fn}($1, $2, 'compliance', now() - interval '1 day', now() - interval '7 days', now() - interval '30 days')`, [p.user.id, market]))
      const [now, then] = await Promise.all([read("bet_inputs"), read("test_0081_bet_inputs")])
      expect(now).toEqual(then)
      return now[0] as Record<string, unknown>
    }
    try {
      expect(await both(marketId)).toMatchObject({ openBets: null, heldExposure: null, inForce: null, dayUsed: null })
      expect(await both("no-such-market")).toMatchObject({ marketStatus: null, openBets: null })
      const body = (side: "back" | "lay") => ({ marketId: market.marketId, selectionId: market.runners[1]!.selectionId, selectionType: side, odds: side === "back" ? 2 : 2.02, stake: 100 })
      expect((await bet(server, p.token, "bet-sport", body("back"))).status).toBe(200)
      expect((await bet(server, p.token, "bet-sport", body("lay"))).status).toBe(200)
      // Open bets come in the order of their ids, which are random.
      const position = await both(marketId)
      expect((position.openBets as Array<{ side: string }>).map((b) => b.side).sort()).toEqual(["back", "lay"])
      expect(position.heldWallet).toBe(1)
      expect((await setLimit(server, p.token, "loss", "day", 500)).status).toBe(200)
      expect(await both(marketId)).toMatchObject({ inForce: [{ period: "day", amount: 50000 }], dayUsed: 0n })
    } finally {
      await server.sql((sql) => sql.unsafe("DROP FUNCTION test_0081_bet_inputs, test_0081_bet_position, test_0081_protection_rules"))
    }
  })

  it("bets racing their market's settlement are each placed before it or refused after it, never failed", async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => player(1000)))
    const market = await fix(eventsOf(sports, "football", false)[2]!, "EXCHANGE", 0, 2, 2.02)
    const body = (i: number) => ({ marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: i % 2 ? "lay" : "back", odds: i % 2 ? 2.02 : 2, stake: 100 })
    // Each player already holds the market, so settlement moves money on every one of them while they bet again.
    for (const p of players) expect((await bet(server, p.token, "bet-sport", body(0))).status).toBe(200)
    const streams = players.map(async (p) => {
      const answers = []
      for (let i = 1; i <= 6; i++) answers.push(await bet(server, p.token, "bet-sport", body(i)))
      return answers
    })
    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.runners[0]!.selectionId } })
    const answers = (await Promise.all(streams)).flat()
    expect(settled.status).toBe(200)
    expect(answers.filter((r) => r.status !== 200 && !(r.status === 422 && r.body.meta.message === "This market is closed for betting.")).map((r) => r.body)).toEqual([])
    // Every accepted bet was settled with the market: none is left open.
    const open = await server.sql((sql) => sql`SELECT b.id FROM bets b JOIN markets m ON m.id = b.market_id WHERE m.external_id = ${market.marketId} AND b.status = 'open'`)
    expect(open).toEqual([])
    await expectLedgerClean(server)
  })
})

describe("settlement", () => {
  it("pays the winners and collects from the losers exactly once, and refuses a second result", async () => {
    const winner = await player(1000)
    const loser = await player(1000)
    const event = eventsOf(sports, "cricket", false)[1]!
    const market = await fix(event, "EXCHANGE", 0, 3, 3.1)
    const [home, away] = market.runners.map((r) => r.selectionId)
    expect((await bet(server, winner.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 3, stake: 100 })).status).toBe(200)
    expect((await bet(server, loser.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "lay", odds: 3.1, stake: 100 })).status).toBe(200)
    expect((await balances(server, loser.token)).exposure).toBe(-210)

    const byPlayer = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: winner.token, json: { marketId: market.marketId, result: home } })
    expect(byPlayer.status).toBe(403)
    const wrong = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: "nobody" } })
    expect(wrong.status).toBe(422)

    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: home } })
    expect(settled.status).toBe(200)
    expect(settled.body.data).toMatchObject({ outcome: "result", result: home, bets: 2, players: 2, playersNet: -10 })
    expect(await balances(server, winner.token)).toMatchObject({ balance: 1200, exposure: 0, bets: [] })
    expect(await balances(server, loser.token)).toMatchObject({ balance: 790, exposure: 0 })

    const again = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: away } })
    expect(again.status).toBe(409)
    expect(again.body.meta.message).toBe("This market was already settled.")
    const late = await bet(server, winner.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 3, stake: 100 })
    expect(late.status).toBe(422)
    expect((await request(server.url, `/api/v1/bet-sport-byMarket?marketId=${market.marketId}`, { token: winner.token })).body.data).toEqual([])
    const [won] = await server.sql((sql) => sql<{ status: string; profitLoss: bigint }>`SELECT status, profit_loss FROM bets WHERE user_id = ${winner.user.id}`)
    expect(won).toMatchObject({ status: "won", profitLoss: 20_000n })
    await expectLedgerClean(server)
  })

  it("settles simultaneous requests once", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "cricket", false)[2]!
    const market = await fix(event, "EXCHANGE", 0, 2, 2.02)
    await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 2, stake: 100 })
    const all = await Promise.all(Array.from({ length: 5 }, () =>
      request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.runners[0]!.selectionId } })))
    expect(all.filter((r) => r.status === 200)).toHaveLength(1)
    expect(all.filter((r) => r.status === 409)).toHaveLength(4)
    expect((await balances(server, p.token)).balance).toBe(1100)
    await expectLedgerClean(server)
  })

  it("settles a fancy by its result in runs", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "cricket", false)[3]!
    const fancy = marketOf(event, "FANCY")
    await setPrice(server, server.admin, { marketId: fancy.marketId, back: { price: 40, size: 100 }, lay: { price: 39, size: 100 }, status: "OPEN" })
    const selectionId = fancy.runners[0]!.selectionId
    expect((await bet(server, p.token, "fancy-bet-sport", { marketId: fancy.marketId, selectionId, selectionType: "back", odds: 40, size: 100, stake: 200 })).status).toBe(200)
    expect((await bet(server, p.token, "fancy-bet-sport", { marketId: fancy.marketId, selectionId, selectionType: "lay", odds: 39, size: 100, stake: 100 })).status).toBe(200)
    // Yes 40 for 200 and No 39 for 100: worst at 39 (both lose): -300.
    expect((await balances(server, p.token)).exposure).toBe(-300)
    const bad = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: fancy.marketId, result: "forty" } })
    expect(bad.status).toBe(422)
    const res = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: fancy.marketId, result: "44" } })
    expect(res.status).toBe(200)
    // 44 reaches Yes 40 (+200) and No 39 loses (-100).
    expect(await balances(server, p.token)).toMatchObject({ balance: 1100, exposure: 0 })
    await expectLedgerClean(server)
  })

  it("voids a market: every stake and liability goes back", async () => {
    const p = await player(1000)
    const event = eventsOf(sports, "football", false)[0]!
    const market = await fix(event, "EXCHANGE", 2, 3.5, 3.6)
    await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[2]!.selectionId, selectionType: "lay", odds: 3.6, stake: 100 })
    expect((await balances(server, p.token)).exposure).toBe(-260)
    const res = await request(server.url, "/api/v1/admin/void-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, reason: "Abandoned" } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ outcome: "void", result: null, bets: 1, playersNet: 0 })
    expect(await balances(server, p.token)).toMatchObject({ balance: 1000, exposure: 0 })
    const again = await request(server.url, "/api/v1/admin/void-market", { method: "POST", token: server.admin, json: { marketId: market.marketId } })
    expect(again.status).toBe(409)
    const [row] = await server.sql((sql) => sql<{ status: string }>`SELECT status FROM bets WHERE user_id = ${p.user.id}`)
    expect(row!.status).toBe("void")
    await expectLedgerClean(server)
  })
})

describe("the odds channel", () => {
  it("sends a snapshot on watch, then the latest prices as they change", async () => {
    const socket = io(server.url, { path: "/socket.io/", transports: ["websocket"] })
    const event = eventsOf(sports, "tennis", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const snapshot = new Promise<{ eventId: string; markets: Array<{ marketId: string }> }>((resolve) => socket.once("odds.snapshot", resolve))
    socket.emit("odds.watch", event._id)
    const first = await snapshot
    expect(first.eventId).toBe(event._id)
    expect(first.markets.map((m) => m.marketId)).toContain(market.marketId)
    const batches: Array<{ markets: Array<{ marketId: string; runners: Array<{ back: Array<{ price: number }> }> }> }> = []
    socket.on("odds", (batch, ack: () => void) => {
      batches.push(batch)
      ack()
    })
    for (const price of [3, 3.5, 4]) {
      await setPrice(server, server.admin, { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, back: { price, size: 10 }, status: "OPEN" })
    }
    // (The event's other markets may come in the same batches.)
    const latest = () => batches.flatMap((b) => b.markets).filter((m) => m.marketId === market.marketId).at(-1)
    await expect.poll(() => latest()?.runners[0]?.back[0]?.price, { timeout: 50_000 }).toBe(4)
    // Conflated: never more batches than changes, and the last one carries the latest price.
    expect(batches.length).toBeLessThanOrEqual(3)
    socket.disconnect()
  })

  it("sends a list's row its one market and nothing else of the event", async () => {
    const socket = io(server.url, { path: "/socket.io/", transports: ["websocket"] })
    const event = eventsOf(sports, "cricket", false)[4]!
    const row = marketOf(event, "EXCHANGE")
    const other = marketOf(event, "BOOKMAKER")
    const snapshot = new Promise<{ eventId: string; markets: Array<{ marketId: string }> }>((resolve) => socket.once("odds.snapshot", resolve))
    socket.emit("odds.watchMarket", event._id, row.marketId)
    expect((await snapshot).markets.map((m) => m.marketId)).toEqual([row.marketId])
    const batches: Array<{ markets: Array<{ marketId: string; runners: Array<{ back: Array<{ size: number }> }> }>; scores: Array<unknown> }> = []
    socket.on("odds", (batch, ack: () => void) => {
      batches.push(batch)
      ack()
    })
    // The other market changes first: had it been sent, it would come before (or with) the row's own change. Each
    // keeps its prices (so no rule of the event's book is touched); the row's runner gets a size of its own.
    const moved = async (market: typeof row) => {
      const selectionId = market.runners[0]!.selectionId
      const now = await priceOf(server, event._id, market.marketId, selectionId)
      const res = await setPrice(server, server.admin, { marketId: market.marketId, selectionId, back: { price: now.back.price, size: 4321 }, lay: { price: now.lay.price, size: 4321 }, status: "OPEN" })
      expect(res.status).toBe(200)
    }
    await moved(other)
    await moved(row)
    const latest = () => batches.flatMap((b) => b.markets).filter((m) => m.marketId === row.marketId).at(-1)
    await expect.poll(() => latest()?.runners[0]?.back[0]?.size, { timeout: 50_000 }).toBe(4321)
    expect(batches.flatMap((b) => b.markets.map((m) => m.marketId)).every((id) => id === row.marketId)).toBe(true)
    expect(batches.flatMap((b) => b.scores)).toEqual([])
    socket.disconnect()
  })
})
