import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { request, signUpPlayer, startServer, type TestServer } from "./helpers.ts"
import { adminToken, expectLedgerVerifies, fund, user } from "./payments-support.ts"

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

describe("referrals", () => {
  it("rewards the referrer 10 % of a referred player's first deposit (up to ₹1,000), once, and claims it to main", async () => {
    const referrer = await signUpPlayer(server, { name: "Asha Verma" })
    const friend = await signUpPlayer(server, { name: "Ravi Kumar Singh", affiliateCode: referrer.user.referralCode })
    const rich = await signUpPlayer(server, { name: "Meera", affiliateCode: referrer.user.referralCode })
    await signUpPlayer(server, { name: "Not Referred" })

    let users = (await request(server.url, "/api/v1/get-refferal-users", { token: referrer.token })).body.data
    expect(users.referralCode).toBe(referrer.user.referralCode)
    expect(users.users.map((u: { name: string; reward: number }) => [u.name, u.reward]).sort()).toEqual([["Meera", 0], ["Ravi S.", 0]])

    await fund(server, friend.token, 2500, admin)
    await fund(server, friend.token, 9000, admin)
    await fund(server, rich.token, 50_000, admin)
    users = (await request(server.url, "/api/v1/get-refferal-users", { token: referrer.token })).body.data
    expect(users.refBonus).toBe(1250)
    expect(Object.fromEntries(users.users.map((u: { name: string; reward: number }) => [u.name, u.reward]))).toEqual({ "Ravi S.": 250, Meera: 1000 })
    expect((await user(server, referrer.token)).refBonus).toBe(1250)

    const transactions = (await request(server.url, "/api/v1/get-refferal-transactions", { token: referrer.token })).body.data
    expect(transactions.map((t: { kind: string; amount: number }) => [t.kind, t.amount]).sort()).toEqual([["referral_reward", 1000], ["referral_reward", 250]])

    const weekly = (await request(server.url, "/api/v1/get-weekly-refferal-transactions", { token: referrer.token })).body.data as Array<{ startDate: string; endDate: string; rewards: number; amount: number }>
    expect(weekly.length).toBeGreaterThanOrEqual(8)
    const thisWeek = weekly[0]!
    // Sunday 00:00 to Saturday 23:59:59.999, India time.
    const india = (iso: string) => new Date(Date.parse(iso) + 330 * 60_000)
    expect([india(thisWeek.startDate).getUTCDay(), india(thisWeek.startDate).getUTCHours(), india(thisWeek.startDate).getUTCMinutes()]).toEqual([0, 0, 0])
    expect([india(thisWeek.endDate).getUTCDay(), india(thisWeek.endDate).getUTCHours(), india(thisWeek.endDate).getUTCMinutes()]).toEqual([6, 23, 59])
    expect(thisWeek).toMatchObject({ rewards: 2, amount: 1250 })
    expect(weekly.slice(1).every((w) => w.amount === 0)).toBe(true)

    const claimed = await request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token: referrer.token, json: {} })
    expect(claimed.status).toBe(200)
    expect(claimed.body.data.refBonus).toBe(0)
    const after = await user(server, referrer.token)
    expect(after.balance).toBe(1250)
    expect(after.refBonus).toBe(0)
    const nothing = await request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token: referrer.token, json: {} })
    expect(nothing.status).toBe(422)
    const history = (await request(server.url, "/api/v1/get-refferal-transactions", { token: referrer.token })).body.data
    expect(history[0]).toMatchObject({ kind: "referral_claim", amount: -1250 })
  })

  it("takes a week range (Sunday to Saturday)", async () => {
    const { token } = await signUpPlayer(server)
    const res = await request(server.url, "/api/v1/get-weekly-refferal-transactions?startDate=2026-01-04&endDate=2026-01-24", { token })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(3)
    expect((await request(server.url, "/api/v1/get-weekly-refferal-transactions?startDate=soon", { token })).status).toBe(400)
  })
})
