import { describe, expect, it } from "vitest"
import { countStatuses as count, request, signUpPlayer, SUITE_LIMITS, useServer } from "./helpers.ts"
import { bet, catalogue, eventsOf, expectLedgerClean, marketOf, setPrice } from "./betting-support.ts"
import { freshId, launch, walletCall } from "./casino-support.ts"
import { createDeposit } from "./payments-support.ts"
import { limitOf, protectionOf, setLimit } from "./protection-support.ts"

process.env.ODDS_SIMULATOR = "off"

/**
 * Limits against requests that arrive together. On PostgreSQL (DATABASE_URL,
 * as CI runs it) they run at once on separate connections: only the player's
 * row lock, taken in the same transaction as the money move, keeps two of
 * them from passing a limit together. On PGlite they queue on one connection.
 */
// Deposit limits count requests as they are filed: the quota of requests waiting is not what is tested here.
const server = useServer({ config: { limits: { ...SUITE_LIMITS, pendingDepositsPerPlayer: 1000 } }, signIn: ["admin"], afterEach: expectLedgerClean })

describe(`limits under concurrency on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("30 deposit requests at once against a daily limit that covers 10: exactly 10 are taken", async () => {
    const { token, user } = await signUpPlayer(server)
    await setLimit(server, token, "deposit", "day", 1000)
    const results = await Promise.all(Array.from({ length: 30 }, () => createDeposit(server, token, 100)))
    expect(count(results.map((r) => r.status))).toEqual({ 200: 10, 422: 20 })
    expect(results.filter((r) => r.status === 422).every((r) => r.body.meta.error === "LimitReached")).toBe(true)
    const [rows] = await server.sql((sql) => sql<{ requests: number; counted: number }>`
      SELECT (SELECT count(*)::int FROM deposit_requests WHERE user_id = ${user.id}) AS requests,
             (SELECT count(*)::int FROM protection_deposits WHERE user_id = ${user.id}) AS counted
    `)
    expect(rows).toEqual({ requests: 10, counted: 10 })
    expect(limitOf(await protectionOf(server, token), "deposit", "day")).toMatchObject({ used: 1000, remaining: 0 })
  }, 120_000)

  it("bets and casino stakes at once against one loss limit: together they never pass it", async () => {
    const { token, user } = await signUpPlayer(server)
    expect((await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: user.username, amount: 10_000 } })).status).toBe(200)
    await setLimit(server, token, "loss", "day", 1000)
    const market = marketOf(eventsOf(await catalogue(server), "football", false)[0]!, "EXCHANGE")
    const selectionId = market.runners[0]!.selectionId
    await setPrice(server, server.admin, { marketId: market.marketId, selectionId, back: { price: 2, size: 100_000 }, lay: { price: 2.02, size: 100_000 }, status: "OPEN" })
    const game = await launch(server, token)
    // Twenty requests of ₹150 each: the limit leaves room for six (₹900), never seven.
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? bet(server, token, "bet-sport", { marketId: market.marketId, selectionId, selectionType: "back", odds: 2, stake: 150 })
        : walletCall(server, "debit", { token: game.token, transactionId: freshId("d"), roundId: freshId("r"), amount: 150 })
    ))
    expect(count(results.map((r) => r.status))).toEqual({ 200: 6, 422: 14 })
    expect(results.filter((r) => r.status === 422).every((r) => r.body.meta.error === "LimitReached")).toBe(true)
    expect(limitOf(await protectionOf(server, token), "loss", "day")).toMatchObject({ used: 900, remaining: 100 })
    // What moved is exactly what was accepted: ₹900 held or staked out of ₹10,000.
    const data = (await request(server.url, "/api/v1/getUserData", { token })).body.data
    expect(data.balance + data.exposure).toBe(9100)
  }, 120_000)
})
