import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { request, signUpPlayer, startServer, type TestServer } from "./helpers.ts"
import { adminToken, balancesOf, expectLedgerVerifies, fund, post, settleStake, user } from "./payments-support.ts"

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
  bonuses: Array<{ _id: string; status: string; amount: number; wageringRequired: number; wagered: number }>
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
    expect(early.body.meta.message).toMatch(/Wager ₹2500.00 more/)

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
