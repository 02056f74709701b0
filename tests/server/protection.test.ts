import { beforeAll, describe, expect, it } from "vitest"
import { addMonthsInIndia, indiaDateTime } from "../../src/domain/protection.ts"
import { request, signUpPlayer, SUITE_LIMITS, useServer } from "./helpers.ts"
import { bet, catalogue, type CatalogueEvent, eventsOf, expectLedgerClean, marketOf, setPrice } from "./betting-support.ts"
import { freshId, launch, walletCall } from "./casino-support.ts"
import { addUpi, approveDeposit, createDeposit, fund } from "./payments-support.ts"
import { advance, clock, confirmLimit, DAY, expectRefused, HOUR, later, limitOf, protectionOf, refusalOf, setLimit } from "./protection-support.ts"
import { agentToken } from "./desk-support.ts"

// Prices stay where a test puts them; events neither start nor finish on their own.
process.env.ODDS_SIMULATOR = "off"

/**
 * Player protection through the API, on a server whose clock the tests move
 * (TEST_CLOCK): frozen at the start of each test, it reads exactly what the
 * test set, so window edges and cooling-off are checked to the millisecond.
 */
// Deposit limits count requests as they are filed: the quota of requests waiting is not what is tested here.
const server = useServer({ config: { testClock: true, limits: { ...SUITE_LIMITS, pendingDepositsPerPlayer: 1000 } }, signIn: ["admin"], afterEach: expectLedgerClean })
let markets: Array<PricedMarket> = []

beforeAll(async () => {
  // Priced before any test moves the clock: a match past its end on the server's clock is decided, and its
  // markets suspend as soon as they are priced again (the simulator is off, so nothing reprices them later).
  const matches = eventsOf(await catalogue(server), "cricket", false)
  for (const match of matches.slice(0, 4)) markets.push(await priced(match))
})

const credit = async (username: string, rupees: number) => {
  const res = await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: username, amount: rupees } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

type PricedMarket = { marketId: string; selectionId: string; loser: string }

/** A match's exchange market, priced back 2.00 / lay 2.02 on its first runner. */
const priced = async (match: CatalogueEvent): Promise<PricedMarket> => {
  const market = marketOf(match, "EXCHANGE")
  const res = await setPrice(server, server.admin, {
    marketId: market.marketId,
    selectionId: market.runners[0]!.selectionId,
    back: { price: 2, size: 100_000 },
    lay: { price: 2.02, size: 100_000 },
    status: "OPEN"
  })
  expect(res.status).toBe(200)
  return { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, loser: market.runners[1]!.selectionId }
}

/** An exchange market of its own: each test takes the next one priced at the start. */
const freshMarket = async () => markets.shift()!

const backBet = (token: string, market: { marketId: string; selectionId: string }, stake: number) =>
  bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: market.selectionId, selectionType: "back", odds: 2, stake })

const debit = (token: string, roundId: string, amount: number) => walletCall(server, "debit", { token, transactionId: freshId("d"), roundId, amount })

// The statement sums by month of India's calendar: it runs first, before any test moves the clock.
describe("the activity statement", () => {
  it("shows deposits, withdrawals, stakes, net result and time spent for each of the last 12 months", async () => {
    const { token, user } = await signUpPlayer(server)
    const start = await clock(server, { frozen: true })
    await fund(server, token, 1000, server.admin)
    const accountId = await addUpi(server, token)
    const withdrawal = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 200, accountId } })
    expect(withdrawal.status).toBe(200)
    expect((await request(server.url, `/api/v1/admin/withdrawal-requests/${withdrawal.body.data._id}/approve`, { method: "PUT", token: server.admin, json: {} })).status).toBe(200)
    const market = await freshMarket()
    expect((await backBet(token, market, 100)).status).toBe(200)
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.loser } })).status).toBe(200)
    const game = await launch(server, token)
    const round = freshId("r")
    expect((await debit(game.token, round, 50)).status).toBe(200)
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: freshId("c"), roundId: round, amount: 0 })).status).toBe(200)
    // Ten minutes of play, seen by the requests at either end.
    await protectionOf(server, token)
    await advance(server, 10 * 60)
    await protectionOf(server, token)

    const res = await request(server.url, "/api/v1/protection/activity", { token })
    expect(res.status).toBe(200)
    const months = res.body.data.months as Array<{ month: string; deposits: number; withdrawals: number; stakes: number; netResult: number; timeSpentSeconds: number }>
    expect(months).toHaveLength(12)
    const thisMonth = new Date(start.now.getTime() + 330 * 60_000).toISOString().slice(0, 7)
    expect(months.at(-1)).toMatchObject({ month: thisMonth, deposits: 1000, withdrawals: 200, stakes: 150, netResult: -150 })
    expect(months.at(-1)!.timeSpentSeconds).toBeGreaterThanOrEqual(600)
    // Oldest first, one calendar month apart, nothing before this player existed.
    expect(months[0]!.month < months[11]!.month).toBe(true)
    expect(months.slice(0, 11).every((m) => m.deposits === 0 && m.stakes === 0 && m.timeSpentSeconds === 0)).toBe(true)
  })
})

describe("the player's protection", () => {
  it("starts with no limits, reality checks off and nothing closed; records the sign-up; is for players only", async () => {
    const { token, user } = await signUpPlayer(server, { region: "KA" })
    const { now } = await clock(server, { frozen: true })
    const state = await protectionOf(server, token)
    expect(state.serverTime).toBe(now.toISOString())
    expect(state.limits).toHaveLength(6)
    expect(state.limits.every((limit) => limit.amount === null && limit.pending === null && limit.remaining === null)).toBe(true)
    expect(state.realityCheck).toMatchObject({ minutes: 0, nextAt: null, due: false, netResult: 0 })
    expect(state).toMatchObject({ timeOut: null, selfExclusion: null, closed: null })
    const [row] = await server.sql((sql) => sql<{ region: string; ageConfirmedAt: Date | null }>`SELECT region, age_confirmed_at FROM player_protection WHERE user_id = ${user.id}`)
    expect(row!.region).toBe("KA")
    expect(row!.ageConfirmedAt).not.toBeNull()
    const audit = await server.sql((sql) => sql<{ action: string; actor: string; ip: string | null }>`SELECT action, actor, ip FROM protection_audit WHERE user_id = ${user.id}`)
    expect(audit).toEqual([{ action: "signup", actor: user.id, ip: expect.stringMatching(/127\.0\.0\.1/) }])
    expectRefused(await request(server.url, "/api/v1/protection", { token: await agentToken(server) }), 403, "Forbidden")
    expectRefused(await request(server.url, "/api/v1/protection"), 401, "SessionEnded")
  })
})

describe("deposit limits", () => {
  it("a first limit and a decrease apply at once; an increase or a removal only once confirmed, 24 hours later at the earliest", async () => {
    const { token, user } = await signUpPlayer(server)
    const { now } = await clock(server, { frozen: true })
    const first = await setLimit(server, token, "deposit", "day", 1000)
    expect(first.status).toBe(200)
    expect(first.body.meta.message).toBe("Your 24-hour deposit limit of ₹1,000.00 is in force now.")
    expect(limitOf(first.body.data, "deposit", "day")).toMatchObject({ amount: 1000, inForceSince: now.toISOString(), remaining: 1000, pending: null })
    expect((await setLimit(server, token, "deposit", "day", 600)).body.meta.message).toBe("Your 24-hour deposit limit of ₹600.00 is in force now.")

    const raised = await setLimit(server, token, "deposit", "day", 2000)
    const confirmableAt = later(now, DAY)
    expect(raised.body.meta.message).toBe(`Your 24-hour deposit limit stays ₹600.00 for now. You can confirm ₹2,000.00 from ${indiaDateTime(confirmableAt)}.`)
    expect(limitOf(raised.body.data, "deposit", "day")).toMatchObject({
      amount: 600,
      pending: { amount: 2000, requestedAt: now.toISOString(), confirmableAt: confirmableAt.toISOString() }
    })
    // Until confirmed, the old limit holds.
    expectRefused(await createDeposit(server, token, 700), 422, "LimitReached", "This deposit would pass your 24-hour deposit limit of ₹600.00: you can deposit up to ₹600.00 now.")
    expectRefused(await confirmLimit(server, token, "deposit", "day"), 422, "CoolingOff", `You can confirm this change from ${indiaDateTime(confirmableAt)}, 24 hours after you asked for it.`)
    await advance(server, DAY - 0.001)
    expectRefused(await confirmLimit(server, token, "deposit", "day"), 422, "CoolingOff")
    await advance(server, 0.001)
    const confirmed = await confirmLimit(server, token, "deposit", "day")
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.meta.message).toBe("Your 24-hour deposit limit of ₹2,000.00 is in force now.")
    expect(limitOf(confirmed.body.data, "deposit", "day")).toMatchObject({ amount: 2000, inForceSince: confirmableAt.toISOString(), pending: null })
    expect((await createDeposit(server, token, 700)).status).toBe(200)
    expectRefused(await confirmLimit(server, token, "deposit", "day"), 409, "Conflict", "There is no change to confirm for your 24-hour deposit limit.")

    // Asking for the limit in force drops a pending change; a removal cools off like an increase.
    await setLimit(server, token, "deposit", "day", 3000)
    expect(limitOf((await setLimit(server, token, "deposit", "day", 2000)).body.data, "deposit", "day").pending).toBeNull()
    const removal = await setLimit(server, token, "deposit", "day", null)
    expect(removal.body.meta.message).toMatch(/^Your 24-hour deposit limit stays ₹2,000\.00 for now\. You can confirm removing it from/)
    await advance(server, DAY)
    expect((await confirmLimit(server, token, "deposit", "day")).body.meta.message).toBe("Your 24-hour deposit limit is removed.")
    const removed = await protectionOf(server, token)
    expect(limitOf(removed, "deposit", "day")).toMatchObject({ amount: null, remaining: null })
    expect(limitOf(removed, "deposit", "week")).toMatchObject({ amount: null, used: 700 })

    const actions = await server.sql((sql) => sql<{ action: string }>`SELECT action FROM protection_audit WHERE user_id = ${user.id} ORDER BY id`)
    expect(actions.map((a) => a.action)).toEqual([
      "signup", "limit.set", "limit.set", "limit.requested", "limit.confirmed", "limit.requested", "limit.kept", "limit.requested", "limit.confirmed"
    ])
  })

  it("takes only amounts in rupees above nothing and up to a crore", async () => {
    const { token } = await signUpPlayer(server)
    expectRefused(await setLimit(server, token, "deposit", "week", 0), 400, "InvalidInput", "The amount must be more than ₹0")
    expectRefused(await setLimit(server, token, "deposit", "week", 10.555), 400, "InvalidInput", "Enter an amount in rupees, like 5000 or 5,000.50")
    expectRefused(await setLimit(server, token, "loss", "month", 1e9), 400, "InvalidInput", /at most ₹1,00,00,000/)
    expectRefused(await request(server.url, "/api/v1/protection/limits", { method: "PUT", token, json: { kind: "spend", period: "day", amount: 5 } }), 400, "InvalidInput", /kind/)
    expect((await protectionOf(server, token)).limits.every((limit) => limit.amount === null)).toBe(true)
  })

  it("counts gross deposits over windows back from now: in at the last millisecond, out at exactly 24 hours, 7 days and 30 days", async () => {
    const { token, user } = await signUpPlayer(server)
    const { now: t0 } = await clock(server, { frozen: true })
    for (const [period, amount] of [["day", 1000], ["week", 1500], ["month", 2000]] as const) expect((await setLimit(server, token, "deposit", period, amount)).status).toBe(200)
    expect((await createDeposit(server, token, 800)).status).toBe(200)
    expect(limitOf(await protectionOf(server, token), "deposit", "day")).toMatchObject({ used: 800, remaining: 200, resetsAt: later(t0, DAY).toISOString() })

    // The lowest room wins: the day has ₹200 left, the week ₹700, the month ₹1,200.
    const refused = await createDeposit(server, token, 300)
    expectRefused(refused, 422, "LimitReached",
      `This deposit would pass your 24-hour deposit limit of ₹1,000.00: you can deposit up to ₹200.00 now; more becomes available from ${indiaDateTime(later(t0, DAY))}.`)
    await advance(server, DAY - 0.001)
    expectRefused(await createDeposit(server, token, 300), 422, "LimitReached", /24-hour/)
    await advance(server, 0.001)
    expect((await createDeposit(server, token, 300)).status).toBe(200)

    // Day 1: the week holds 800 + 300.
    expectRefused(await createDeposit(server, token, 500), 422, "LimitReached", /7-day deposit limit of ₹1,500\.00: you can deposit up to ₹400\.00 now/)
    await advance(server, 6 * DAY - 0.001)
    expectRefused(await createDeposit(server, token, 500), 422, "LimitReached", /7-day/)
    await advance(server, 0.001)
    expect((await createDeposit(server, token, 500)).status).toBe(200)

    // Day 7: the month holds 800 + 300 + 500.
    expectRefused(await createDeposit(server, token, 500), 422, "LimitReached", /30-day deposit limit of ₹2,000\.00: you can deposit up to ₹400\.00 now/)
    await advance(server, 23 * DAY - 0.001)
    expectRefused(await createDeposit(server, token, 500), 422, "LimitReached", /30-day/)
    await advance(server, 0.001)
    expect((await createDeposit(server, token, 500)).status).toBe(200)

    // Refused requests stored nothing: four requests, and no screenshot or count of the others.
    const [counts] = await server.sql((sql) => sql<{ requests: number; counted: number }>`
      SELECT (SELECT count(*)::int FROM deposit_requests WHERE user_id = ${user.id}) AS requests,
             (SELECT count(*)::int FROM protection_deposits WHERE user_id = ${user.id}) AS counted
    `)
    expect(counts).toEqual({ requests: 4, counted: 4 })
  })

  it("stops counting a request the operator rejects; withdrawals give nothing back", async () => {
    const { token } = await signUpPlayer(server)
    await clock(server, { frozen: true })
    await setLimit(server, token, "deposit", "day", 1000)
    const rejected = await createDeposit(server, token, 600)
    expectRefused(await createDeposit(server, token, 600), 422, "LimitReached")
    expect((await request(server.url, `/api/v1/admin/deposit-requests/${rejected.body.data._id}/reject`, { method: "PUT", token: server.admin, json: {} })).status).toBe(200)
    const approved = await createDeposit(server, token, 600)
    expect(approved.status).toBe(200)
    expect((await approveDeposit(server, server.admin, approved.body.data._id)).status).toBe(200)
    const accountId = await addUpi(server, token)
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 500, accountId } })).status).toBe(200)
    expect(limitOf(await protectionOf(server, token), "deposit", "day")).toMatchObject({ used: 600, remaining: 400 })
    expectRefused(await createDeposit(server, token, 500), 422, "LimitReached")
  })
})

describe("loss limits", () => {
  it("count sports and casino together: what could pass the limit is refused, a hedge is not, wins give room back", async () => {
    const { token, user } = await signUpPlayer(server)
    await credit(user.username, 5000)
    const { now: t0 } = await clock(server, { frozen: true })
    await setLimit(server, token, "loss", "day", 1000)
    const market = await freshMarket()
    const game = await launch(server, token)

    // ₹600 held for the back bet: its worst case counts before it settles.
    expect((await backBet(token, market, 600)).status).toBe(200)
    const round = freshId("r")
    expectRefused(await debit(game.token, round, 500), 422, "LimitReached",
      "This stake could take your losses past your 24-hour loss limit of ₹1,000.00: you can risk up to ₹400.00 more now; more becomes available as your open bets are settled.")
    expect((await debit(game.token, round, 400)).status).toBe(200)
    expectRefused(await backBet(token, market, 100), 422, "LimitReached", /^You have reached your 24-hour loss limit of ₹1,000\.00; more becomes available from/)
    // A lay that hedges lowers the worst case (600 → 500): always accepted.
    expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: market.selectionId, selectionType: "lay", odds: 2.02, stake: 100 })).status).toBe(200)

    // An hour later the casino pays ₹300 back: 400 − 300 lost there, 500 at risk on the market.
    await advance(server, HOUR)
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: freshId("c"), roundId: round, amount: 300 })).status).toBe(200)
    expect(limitOf(await protectionOf(server, token), "loss", "day")).toMatchObject({ used: 600, remaining: 400, resetsAt: later(t0, DAY).toISOString() })

    // The market settles against the player: −600 + 100 on the two bets.
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.loser } })).status).toBe(200)
    expect(limitOf(await protectionOf(server, token), "loss", "day")).toMatchObject({ used: 600, remaining: 400 })
    const second = freshId("r")
    expectRefused(await debit(game.token, second, 400.01), 422, "LimitReached", /you can risk up to ₹400\.00 more now/)
    expect((await debit(game.token, second, 400)).status).toBe(200)
    expectRefused(await debit(game.token, freshId("r"), 1), 422, "LimitReached")

    // A day after the first ₹400 was staked it leaves the window; the later results stay.
    await advance(server, DAY - HOUR - 0.001)
    expect(limitOf(await protectionOf(server, token), "loss", "day").used).toBe(1000)
    await advance(server, 0.001)
    expect(limitOf(await protectionOf(server, token), "loss", "day")).toMatchObject({ used: 600, remaining: 400 })

    // Refusals moved nothing: 5000 − 400 + 300 − 400 (casino) − 500 (the market).
    expect((await request(server.url, "/api/v1/getUserData", { token })).body.data).toMatchObject({ balance: 4000, exposure: 0 })
  })

  it("apply the lowest of several windows, counting the net over each", async () => {
    const { token, user } = await signUpPlayer(server)
    await credit(user.username, 5000)
    await clock(server, { frozen: true })
    await setLimit(server, token, "loss", "day", 3000)
    await setLimit(server, token, "loss", "week", 700)
    const game = await launch(server, token)
    const round = freshId("r")
    expect((await debit(game.token, round, 500)).status).toBe(200)
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: freshId("c"), roundId: round, amount: 1000 })).status).toBe(200)
    // Up ₹500: the week allows 700 + 500 now.
    expect(limitOf(await protectionOf(server, token), "loss", "week")).toMatchObject({ used: -500, remaining: 1200 })
    expectRefused(await debit(game.token, freshId("r"), 1200.01), 422, "LimitReached", /7-day loss limit of ₹700\.00/)
    expect((await debit(game.token, freshId("r"), 1200)).status).toBe(200)
  })
})

describe("time-out", () => {
  it("closes bets, casino, deposits and bonuses; withdrawals, the balance and statements stay open; it cannot be shortened", async () => {
    const { token, user } = await signUpPlayer(server)
    await fund(server, token, 2000, server.admin)
    const accountId = await addUpi(server, token)
    const market = await freshMarket()
    const game = await launch(server, token)
    const { now } = await clock(server, { frozen: true })

    const res = await request(server.url, "/api/v1/protection/time-out", { method: "POST", token, json: { days: 1 } })
    expect(res.status).toBe(200)
    const until = later(now, DAY)
    expect(res.body.meta.message).toBe(`You are taking a break until ${indiaDateTime(until)}. Bets, casino games and deposits are closed until then; you can still withdraw your balance.`)
    expect(res.body.data.timeOut).toEqual({ startedAt: now.toISOString(), until: until.toISOString() })
    expect(res.body.data.closed).toMatchObject({ reason: "TimedOut", until: until.toISOString() })

    await expectClosed(token, game.token, market, "TimedOut")
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 100, accountId } })).status).toBe(200)
    for (const path of ["/api/v1/getUserData", "/api/v1/account-statement", "/api/v1/bonus-data", "/api/v1/protection/activity"]) {
      expect((await request(server.url, path, { token })).status, path).toBe(200)
    }
    // Offers are marketing: none while on a break (the welcome bonus waits, unseen).
    expect((await request(server.url, "/api/v1/bonus-data", { token })).body.data.bonuses).toEqual([])
    expect((await request(server.url, "/api/v1/advertisement", { token })).body.data).toEqual([])
    expect((await request(server.url, "/api/v1/advertisement")).body.data).toHaveLength(4)

    expectRefused(await request(server.url, "/api/v1/protection/time-out", { method: "POST", token, json: { days: 1 } }), 403, "TimedOut", /cannot be shortened/)
    const longer = await request(server.url, "/api/v1/protection/time-out", { method: "POST", token, json: { days: 7 } })
    expect(longer.body.data.timeOut).toEqual({ startedAt: now.toISOString(), until: later(now, 7 * DAY).toISOString() })
    expect(await refusalOf(server.sql((sql) => sql`UPDATE player_protection SET time_out_until = ${now} WHERE user_id = ${user.id}`))).toMatch(/a time-out cannot be shortened or lifted/)

    await advance(server, 7 * DAY - 0.001)
    expectRefused(await backBet(token, market, 100), 403, "TimedOut")
    await advance(server, 0.001)
    expect((await backBet(token, market, 100)).status).toBe(200)
    expect((await request(server.url, "/api/v1/bonus-data", { token })).body.data.bonuses).toHaveLength(1)
  })
})

/**
 * Every money endpoint but withdrawals refuses a closed account with its reason, and moves nothing. A game
 * session opened before a self-exclusion ended with the player's sessions, so its debit is refused as such.
 */
const expectClosed = async (token: string, gameToken: string, market: { marketId: string; selectionId: string }, reason: string, gameReason = reason) => {
  const before = (await request(server.url, "/api/v1/getUserData", { token })).body.data
  const calls: Array<[string, Promise<{ status: number; body: any }>]> = [
    ["deposit", createDeposit(server, token, 500)],
    ["bet-sport", backBet(token, market, 100)],
    ["bet-racing", bet(server, token, "bet-racing", { marketId: market.marketId, selectionId: market.selectionId, selectionType: "back", odds: 2, stake: 100 })],
    ["fancy-bet-sport", bet(server, token, "fancy-bet-sport", { marketId: market.marketId, selectionId: market.selectionId, selectionType: "back", odds: 2, size: 100, stake: 100 })],
    ["live casino", request(server.url, "/api/v1/live-casino-dcs/khel-dt-1", { token })],
    ["sa casino", request(server.url, "/api/v1/sa-casino/sa-baccarat-1", { token })],
    ["casino debit", debit(gameToken, freshId("r"), 100)],
    ["activate bonus", request(server.url, "/api/v1/activate-bonus", { method: "PUT", token, json: { bonusId: "any" } })],
    ["claim bonus", request(server.url, "/api/v1/claim-bonus", { method: "PUT", token, json: { bonusId: "any" } })],
    ["claim referral bonus", request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token, json: {} })]
  ]
  for (const [name, call] of calls) {
    const res = await call
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403)
    expect(res.body.meta.error, name).toBe(name === "casino debit" ? gameReason : reason)
  }
  const after = (await request(server.url, "/api/v1/getUserData", { token })).body.data
  expect({ balance: after.balance, exposure: after.exposure, bonus: after.bonus }).toEqual({ balance: before.balance, exposure: before.exposure, bonus: before.bonus })
}

describe("self-exclusion", () => {
  it("closes the account for the whole period and signs the player out; open bets and rounds settle; it reopens only 24 hours after the player asks", async () => {
    const { token: first, user, password } = await signUpPlayer(server)
    await fund(server, first, 2000, server.admin)
    const accountId = await addUpi(server, first)
    const market = await freshMarket()
    const game = await launch(server, first)
    const round = freshId("r")
    expect((await backBet(first, market, 200)).status).toBe(200)
    expect((await debit(game.token, round, 100)).status).toBe(200)
    const { now } = await clock(server, { frozen: true })

    const excluded = await request(server.url, "/api/v1/protection/self-exclusion", { method: "POST", token: first, json: { months: 6 } })
    expect(excluded.status).toBe(200)
    expect(excluded.body.data.selfExclusion).toEqual({ startedAt: now.toISOString(), until: addMonthsInIndia(now, 6).toISOString(), returnRequestedAt: null, returnsAt: null })
    expect(excluded.body.meta.message).toMatch(/^Your account is self-excluded until .+ IST\. Bets, casino games, deposits and bonuses are closed; you can still withdraw your balance\. You have been signed out\.$/)
    // Every session ended; signing in still works, to withdraw.
    expect((await request(server.url, "/api/v1/getUserData", { token: first })).status).toBe(401)
    const login = await request(server.url, "/identity/user/login", { method: "POST", json: { username: user.username, password } })
    expect(login.status).toBe(200)
    const token = login.body.meta.token as string
    const state = await protectionOf(server, token)
    expect(state.closed).toMatchObject({ reason: "SelfExcluded", until: state.selfExclusion!.until })

    await expectClosed(token, game.token, market, "SelfExcluded", "Forbidden")
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 100, accountId } })).status).toBe(200)
    expect((await request(server.url, "/api/v1/advertisement", { token })).body.data).toEqual([])
    expect((await request(server.url, "/api/v1/bonus-data", { token })).body.data.bonuses).toEqual([])

    // What was open before settles normally.
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: freshId("c"), roundId: round, amount: 250 })).status).toBe(200)
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.selectionId } })).status).toBe(200)
    // 2000 − 100 staked + 250 won at the table − 100 withdrawn + 200 won on the market.
    expect((await request(server.url, "/api/v1/getUserData", { token })).body.data).toMatchObject({ balance: 2250, exposure: 0 })

    // Nobody shortens or lifts it: not the player, not a time-out, not the database's owner.
    expectRefused(await request(server.url, "/api/v1/protection/return", { method: "POST", token, json: {} }), 403, "SelfExcluded", /cannot be ended early/)
    expectRefused(await request(server.url, "/api/v1/protection/self-exclusion", { method: "POST", token, json: { months: 6 } }), 403, "SelfExcluded", /cannot be shortened/)
    expectRefused(await request(server.url, "/api/v1/protection/time-out", { method: "POST", token, json: { days: 42 } }), 403, "SelfExcluded")
    expect(await refusalOf(server.sql((sql) => sql`UPDATE player_protection SET excluded_until = ${now} WHERE user_id = ${user.id}`))).toMatch(/a self-exclusion cannot be shortened or lifted/)
    expect(await refusalOf(server.sql((sql) => sql`UPDATE player_protection SET excluded_until = NULL, excluded_at = NULL WHERE user_id = ${user.id}`))).toMatch(/a self-exclusion cannot be shortened or lifted/)
    expect(await refusalOf(server.sql((sql) => sql`DELETE FROM player_protection WHERE user_id = ${user.id}`))).toMatch(/player protection records are kept/)

    // The period ends; the account stays closed until the player asks to return, then 24 hours more.
    const end = new Date(state.selfExclusion!.until)
    await advance(server, (end.getTime() - now.getTime()) / 1000 - 0.001)
    expectRefused(await createDeposit(server, token, 500), 403, "SelfExcluded", /self-excluded until/)
    await advance(server, 0.001)
    expectRefused(await createDeposit(server, token, 500), 403, "SelfExcluded", "Your self-exclusion has ended, but your account stays closed until you ask to return. It reopens 24 hours after you ask.")
    expect((await request(server.url, "/api/v1/advertisement", { token })).body.data).toEqual([])
    const asked = await request(server.url, "/api/v1/protection/return", { method: "POST", token, json: {} })
    expect(asked.status).toBe(200)
    expect(asked.body.data.selfExclusion).toMatchObject({ returnRequestedAt: end.toISOString(), returnsAt: later(end, DAY).toISOString() })
    expectRefused(await request(server.url, "/api/v1/protection/return", { method: "POST", token, json: {} }), 403, "SelfExcluded")
    await advance(server, DAY - 0.001)
    expectRefused(await createDeposit(server, token, 500), 403, "SelfExcluded", `Your account reopens on ${indiaDateTime(later(end, DAY))}, 24 hours after you asked to return.`)
    await advance(server, 0.001)
    expect((await createDeposit(server, token, 500)).status).toBe(200)
    expect((await protectionOf(server, token))).toMatchObject({ closed: null, selfExclusion: null })
    expect((await request(server.url, "/api/v1/advertisement", { token })).body.data).toHaveLength(4)

    const actions = await server.sql((sql) => sql<{ action: string }>`SELECT action FROM protection_audit WHERE user_id = ${user.id} ORDER BY id`)
    expect(actions.map((a) => a.action)).toEqual(["signup", "self-exclusion", "self-exclusion.return"])
  })
})

describe("reality checks", () => {
  it("belong to the session on the server: due at each interval, answered once, reset by a new session", async () => {
    const { token, user } = await signUpPlayer(server)
    await credit(user.username, 1000)
    const game = await launch(server, token)
    const { now: t0 } = await clock(server, { frozen: true })
    // After 30 idle minutes the next request starts a session of its own.
    await advance(server, 31 * 60)
    const { now: start } = await clock(server)
    const off = await protectionOf(server, token)
    expect(off.realityCheck).toMatchObject({ minutes: 0, sessionStartedAt: start.toISOString(), elapsedSeconds: 0, nextAt: null, due: false })
    expect(t0 < start).toBe(true)

    const set = await request(server.url, "/api/v1/protection/reality-check", { method: "PUT", token, json: { minutes: 30 } })
    expect(set.status).toBe(200)
    expect(set.body.data.realityCheck).toMatchObject({ minutes: 30, nextAt: later(start, 30 * 60).toISOString(), due: false })
    const round = freshId("r")
    expect((await debit(game.token, round, 100)).status).toBe(200)
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: freshId("c"), roundId: round, amount: 250 })).status).toBe(200)

    await advance(server, 30 * 60 - 0.001)
    expect((await protectionOf(server, token)).realityCheck).toMatchObject({ due: false, netResult: 150 })
    // Answering before the reminder shows would push it back without end: refused, nothing moves.
    const early = await request(server.url, "/api/v1/protection/reality-check/continue", { method: "POST", token, json: {} })
    expect(early.status).toBe(409)
    expect(early.body.meta.message).toMatch(/^There is no reality check to answer yet: the next one is at .+ IST\.$/)
    await advance(server, 0.001)
    // Across pages and reloads the answer is the same until the player answers it.
    for (let i = 0; i < 2; i++) {
      expect((await protectionOf(server, token)).realityCheck).toMatchObject({
        sessionStartedAt: start.toISOString(), elapsedSeconds: 30 * 60, netResult: 150, nextAt: later(start, 30 * 60).toISOString(), due: true
      })
    }
    const answered = await request(server.url, "/api/v1/protection/reality-check/continue", { method: "POST", token, json: {} })
    expect(answered.body.data.realityCheck).toMatchObject({ due: false, nextAt: later(start, 60 * 60).toISOString() })
    // Answered once: a second answer finds nothing showing.
    expect((await request(server.url, "/api/v1/protection/reality-check/continue", { method: "POST", token, json: {} })).status).toBe(409)
    expect((await request(server.url, "/api/v1/protection/reality-check", { method: "PUT", token, json: { minutes: 20 } })).status).toBe(400)

    await advance(server, 31 * 60)
    expect((await protectionOf(server, token)).realityCheck).toMatchObject({ elapsedSeconds: 0, netResult: 0, due: false })
  })
})

describe("the test clock", () => {
  it("only moves forward, and once released runs on from where it stood", async () => {
    const frozen = await clock(server, { frozen: true })
    expect((await clock(server)).now).toEqual(frozen.now)
    expectRefused(await request(server.url, "/api/v1/test/clock", { method: "POST", json: { seconds: -1 } }), 400, "InvalidInput", /only moves forward/)
    const released = await clock(server, { frozen: false })
    expect(released.frozen).toBe(false)
    expect(released.now.getTime()).toBeGreaterThanOrEqual(frozen.now.getTime())
    const afterwards = await clock(server)
    expect(afterwards.now.getTime()).toBeGreaterThanOrEqual(released.now.getTime())
    // It stands months ahead of the machine's clock after the tests above, and never went back.
    expect(afterwards.now.getTime()).toBeGreaterThan(Date.now() + 30 * DAY * 1000)
  })
})
