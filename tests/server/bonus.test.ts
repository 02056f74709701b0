import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { request, signUpPlayer, startServer, type TestServer } from "./helpers.ts"
import { adminToken, balancesOf, expectLedgerVerifies, fund, post, settleStake, user } from "./payments-support.ts"
import { bet, catalogue, eventsOf, marketOf, setPrice } from "./betting-support.ts"

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startServer()
  admin = await adminToken(server)
})
afterAll(async () => {
  await server?.close()
})
afterEach(async () => {
  await expectLedgerVerifies(server)
})

const data = async (token: string) => (await request(server.url, "/api/v1/bonus-data", { token })).body.data as {
  bonusBalance: number
  bonuses: Array<{ _id: string; status: string; amount: number; wageringRequired: number; wagered: number; wageringLeft: number }>
}
const act = (token: string, action: "activate-bonus" | "claim-bonus" | "forfeit-bonus", bonusId: string) =>
  request(server.url, `/api/v1/${action}`, { method: "PUT", token, json: { bonusId } })

describe("bonuses", () => {
  it("offers the welcome bonus on the first approved deposit only: 100 %, capped at ₹10,000, wagered 5 times", async () => {
    const { token } = await signUpPlayer(server)
    expect((await data(token)).bonuses).toEqual([])
    await fund(server, token, 2000, admin)
    await fund(server, token, 3000, admin)
    const { bonuses, bonusBalance } = await data(token)
    expect(bonuses).toHaveLength(1)
    expect(bonuses[0]).toMatchObject({ status: "available", amount: 2000, wageringRequired: 10000, wagered: 0 })
    expect(bonusBalance).toBe(0)

    const big = await signUpPlayer(server)
    await fund(server, big.token, 50_000, admin)
    expect((await data(big.token)).bonuses[0]).toMatchObject({ amount: 10_000, wageringRequired: 50_000 })
  })

  it("activates into the bonus wallet, counts settled stakes, claims to main once wagering is met", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 500, admin)
    const [offer] = (await data(token)).bonuses
    const activated = await act(token, "activate-bonus", offer!._id)
    expect(activated.status).toBe(200)
    expect(activated.body.data.bonuses[0].status).toBe("active")
    expect(activated.body.data.bonusBalance).toBe(500)
    expect((await user(server, token)).bonus).toBe(500)
    expect((await act(token, "activate-bonus", offer!._id)).status).toBe(409)

    const early = await act(token, "claim-bonus", offer!._id)
    expect(early.status).toBe(409)
    expect(early.body.meta.message).toMatch(/Wager ₹2,500.00 more/)

    // Bets from the bonus wallet win a little; stakes settle.
    await post(server, { kind: "bet_settle", userId: player.id, description: "won on bonus", legs: [{ account: { operator: "house" }, amount: -120_00 }, { account: { user: player.id, kind: "bonus" }, amount: 120_00 }] })
    await settleStake(server, player.id, 1000_00)
    expect((await data(token)).bonuses[0]).toMatchObject({ status: "active", wagered: 1000 })
    await settleStake(server, player.id, 1500_00)
    expect((await data(token)).bonuses[0]).toMatchObject({ status: "completed", wagered: 2500 })

    await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 2 } })
    const claimed = await act(token, "claim-bonus", offer!._id)
    expect(claimed.status).toBe(200)
    expect(claimed.body.data.bonuses[0].status).toBe("claimed")
    const after = await user(server, token)
    expect(after.balance).toBe(500 + 620)
    expect(after.bonus).toBe(0)
    expect(after.wallet).toBe(1)
    expect((await act(token, "claim-bonus", offer!._id)).status).toBe(409)
    expect((await act(token, "forfeit-bonus", offer!._id)).status).toBe(409)
  })

  it("forfeit removes the bonus wallet; a forfeited offer cannot be activated", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 300, admin)
    const [offer] = (await data(token)).bonuses
    await act(token, "activate-bonus", offer!._id)
    expect((await balancesOf(server, player.id)).bonus).toBe(300_00)
    const forfeited = await act(token, "forfeit-bonus", offer!._id)
    expect(forfeited.body.data.bonuses[0].status).toBe("forfeited")
    expect(forfeited.body.data.bonusBalance).toBe(0)
    expect((await user(server, token)).balance).toBe(300)
    expect((await act(token, "activate-bonus", offer!._id)).status).toBe(409)
    // Stakes settled after that count for nothing.
    await settleStake(server, player.id, 100_00)
    expect((await data(token)).bonuses[0]!.wagered).toBe(0)
  })

  it("refuses another player's bonus and an unknown one", async () => {
    const a = await signUpPlayer(server)
    const b = await signUpPlayer(server)
    await fund(server, a.token, 200, admin)
    const [offer] = (await data(a.token)).bonuses
    expect((await act(b.token, "activate-bonus", offer!._id)).status).toBe(404)
    expect((await act(a.token, "forfeit-bonus", "nope")).status).toBe(404)
  })
})

describe("wagering counts what is really at risk", () => {
  it("counts a back and a lay on the same runner at neighbouring prices as the ₹20 they risk, not the ₹2,000 they stake", async () => {
    const { token } = await signUpPlayer(server)
    await fund(server, token, 5000, admin)
    const [offer] = (await data(token)).bonuses
    expect((await act(token, "activate-bonus", offer!._id)).status).toBe(200)
    // A match that has not started, its first runner priced by hand: back at 2.00, lay at 2.02.
    const match = eventsOf(await catalogue(server), "cricket", false).find((event) => event.markets.some((m) => m.marketType === "EXCHANGE"))!
    const market = marketOf(match, "EXCHANGE")
    const [home, away] = market.runners
    expect((await setPrice(server, admin, { marketId: market.marketId, selectionId: home!.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" })).status).toBe(200)
    for (let round = 0; round < 3; round++) {
      expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: home!.selectionId, selectionType: "back", odds: 2, stake: 1000 })).status).toBe(200)
      expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: home!.selectionId, selectionType: "lay", odds: 2.02, stake: 1000 })).status).toBe(200)
    }
    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: admin, json: { marketId: market.marketId, result: away!.selectionId } })
    expect(settled.status).toBe(200)
    // Staked ₹6,000 in all; the most the player could lose was ₹60 (if the home side had won).
    const [bonus] = (await data(token)).bonuses
    expect(bonus).toMatchObject({ status: "active", wagered: 60, wageringRequired: 25_000, wageringLeft: 24_940 })
  })
})
