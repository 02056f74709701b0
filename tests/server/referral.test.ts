import { describe, expect, it } from "vitest"
import type { IntegritySignal } from "../../src/schema/integrity.ts"
import { TAKEN_MESSAGE } from "../../server/payments/payoutAccounts.ts"
import { backAndLose } from "./betting-support.ts"
import { expectLedgerVerifies, rawRequest, request, signUpPlayer, useServer } from "./helpers.ts"
import { addUpi, fund, user } from "./payments-support.ts"

/** The server trusts one proxy: players speak from addresses of their own (X-Forwarded-For). */
const server = useServer({ config: { trustProxy: 1 }, signIn: ["admin"], afterEach: expectLedgerVerifies })

interface Referred { name: string; reward: number; status: string }
const referred = async (token: string) => {
  const res = await request(server.url, "/api/v1/get-refferal-users", { token })
  expect(res.status).toBe(200)
  return res.body.data as { referralCode: string; refBonus: number; users: Array<Referred> }
}
const byName = (users: ReadonlyArray<Referred>) => Object.fromEntries(users.map((u) => [u.name, [u.status, u.reward]]))

const used = new Set<string>()
/** Real play from the main wallet, lost. */
const play = (token: string, stake: number) => backAndLose(server, server.admin, token, stake, used)

/** The visitor cookie the site's page gives a browser (name=value). */
const browser = async (from: string) => {
  const page = await rawRequest(`${server.url}/`, { headers: { "x-forwarded-for": from } })
  const cookie = page.headers["set-cookie"]?.split(";")[0]
  expect(cookie).toMatch(/^khel_visitor=/)
  return cookie!
}

const signalsOf = async (kind: string, userId: string) => {
  const res = await request(server.url, `/api/v1/admin/signals?kind=${kind}&user=${userId}`, { token: server.admin })
  expect(res.status).toBe(200)
  return (res.body.data.signals as ReadonlyArray<IntegritySignal>)
}

describe("referrals", () => {
  it("rewards the referrer 10 % of a referred player's first deposit (up to ₹1,000) once they have wagered it, once, and claims it to main", async () => {
    const referrer = await signUpPlayer(server, { name: "Asha Verma", headers: { "x-forwarded-for": "198.51.100.1" } })
    const friend = await signUpPlayer(server, { name: "Ravi Kumar Singh", affiliateCode: referrer.user.referralCode, headers: { "x-forwarded-for": "198.51.100.2" } })
    const rich = await signUpPlayer(server, { name: "Meera", affiliateCode: referrer.user.referralCode, headers: { "x-forwarded-for": "198.51.100.3" } })
    await signUpPlayer(server, { name: "Not Referred" })

    let users = await referred(referrer.token)
    expect(users.referralCode).toBe(referrer.user.referralCode)
    expect(byName(users.users)).toEqual({ Meera: ["awaitingDeposit", 0], "Ravi S.": ["awaitingDeposit", 0] })

    await fund(server, friend.token, 2500, server.admin)
    await fund(server, friend.token, 9000, server.admin)
    await fund(server, rich.token, 20_000, server.admin)
    // Deposits alone earn nothing: the reward waits for the friend's own play.
    users = await referred(referrer.token)
    expect(users.refBonus).toBe(0)
    expect(byName(users.users)).toEqual({ Meera: ["awaitingPlay", 0], "Ravi S.": ["awaitingPlay", 0] })

    await play(friend.token, 2500)
    await play(rich.token, 19_000)
    users = await referred(referrer.token)
    expect(byName(users.users)).toEqual({ Meera: ["awaitingPlay", 0], "Ravi S.": ["rewarded", 250] })
    await play(rich.token, 1000)
    users = await referred(referrer.token)
    expect(users.refBonus).toBe(1250)
    expect(byName(users.users)).toEqual({ Meera: ["rewarded", 1000], "Ravi S.": ["rewarded", 250] })
    expect((await user(server, referrer.token)).refBonus).toBe(1250)
    // Play after the reward is paid pays nothing more.
    await play(friend.token, 500)
    expect((await referred(referrer.token)).refBonus).toBe(1250)

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

  it("pays nothing for accounts made from the referrer's address that deposit, add the referrer's UPI id and withdraw at once", async () => {
    const farm = "203.0.113.7"
    const referrer = await signUpPlayer(server, { name: "Farm Owner", headers: { "x-forwarded-for": farm } })
    await addUpi(server, referrer.token, "farm.owner@okaxis")
    for (let i = 0; i < 3; i++) {
      const friend = await signUpPlayer(server, { name: `Farmed ${i}`, affiliateCode: referrer.user.referralCode, headers: { "x-forwarded-for": farm } })
      await fund(server, friend.token, 1000, server.admin)
      // The referrer's UPI id is theirs: another player cannot add it, in any spelling.
      const taken = await request(server.url, "/api/v1/account-details", {
        method: "POST", token: friend.token, json: { type: "upi", accountNumber: " Farm.Owner@OKAXIS ", accountHolderName: "Farm Owner" }
      })
      expect(taken.body.meta).toMatchObject({ code: 409, message: TAKEN_MESSAGE.upi, error: "Conflict" })
      expect((await request(server.url, "/api/v1/account-details", { token: friend.token })).body.data).toEqual([])
      const [signal] = await signalsOf("shared_payout_account", friend.user.id)
      expect(signal).toMatchObject({ subject: "upi:farm.owner@okaxis" })
      expect(signal!.players.map((p) => p.id).sort()).toEqual([friend.user.id, referrer.user.id].sort())
      const accountId = await addUpi(server, friend.token, `farmed.${i}.${Date.now()}@okicici`)
      expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: friend.token, json: { amount: 1000, accountId } })).status).toBe(200)
    }
    const users = await referred(referrer.token)
    expect(users.refBonus).toBe(0)
    expect(users.users.map((u) => u.status)).toEqual(["awaitingPlay", "awaitingPlay", "awaitingPlay"])
    expect((await request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token: referrer.token, json: {} })).status).toBe(422)

    // One that does play its deposit from the referrer's address still earns nothing, and the operator is told.
    const player = await signUpPlayer(server, { name: "Farmed Player", affiliateCode: referrer.user.referralCode, headers: { "x-forwarded-for": farm } })
    await fund(server, player.token, 1000, server.admin)
    await play(player.token, 1000)
    expect(byName((await referred(referrer.token)).users)["Farmed P."]).toEqual(["withheld", 0])
    expect((await referred(referrer.token)).refBonus).toBe(0)
    const [signal] = await signalsOf("shared_address", player.user.id)
    expect(signal).toMatchObject({ subject: farm, context: { referredUserId: player.user.id, referrerId: referrer.user.id } })
    expect(signal!.detail).toContain("withheld")
  })

  it("withholds the reward of a friend on the referrer's browser or UPI id, pays one on their own; a shared private address counts for nothing", async () => {
    const cookie = await browser("198.51.100.20")
    const referrer = await signUpPlayer(server, { name: "Kiran Rao", headers: { "x-forwarded-for": "198.51.100.20", cookie } })
    // The referrer also signs in from the office network, behind which everyone shares an address.
    expect((await request(server.url, "/identity/user/login", {
      method: "POST", json: { username: referrer.user.username, password: referrer.password }, headers: { "x-forwarded-for": "10.1.2.3" }
    })).status).toBe(200)
    const code = referrer.user.referralCode
    const sameBrowser = await signUpPlayer(server, { name: "Same Browser", affiliateCode: code, headers: { "x-forwarded-for": "198.51.100.21", cookie } })
    const ownBrowser = await signUpPlayer(server, {
      name: "Own Browser", affiliateCode: code, headers: { "x-forwarded-for": "10.1.2.3", cookie: await browser("10.1.2.3") }
    })
    const upiFriend = await signUpPlayer(server, { name: "Tried Upi", affiliateCode: code, headers: { "x-forwarded-for": "198.51.100.22" } })
    await addUpi(server, referrer.token, "kiran.rao@oksbi")
    expect((await request(server.url, "/api/v1/account-details", {
      method: "POST", token: upiFriend.token, json: { type: "upi", accountNumber: "kiran.rao@oksbi", accountHolderName: "Kiran Rao" }
    })).status).toBe(409)

    for (const friend of [sameBrowser, ownBrowser, upiFriend]) {
      await fund(server, friend.token, 1000, server.admin)
      await play(friend.token, 1000)
    }
    const users = await referred(referrer.token)
    expect(byName(users.users)).toEqual({ "Same B.": ["withheld", 0], "Own B.": ["rewarded", 100], "Tried U.": ["withheld", 0] })
    expect(users.refBonus).toBe(100)
    const [device] = await signalsOf("shared_device", sameBrowser.user.id)
    expect(device!.players.map((p) => p.id).sort()).toEqual([sameBrowser.user.id, referrer.user.id].sort())
    expect(device!.detail).toBe("A referred player shares a device with their referrer: the referral reward of ₹100.00 was withheld")
    expect(await signalsOf("shared_address", ownBrowser.user.id)).toEqual([])
    // The refused UPI id was signalled when it was tried (one signal per account and pair of players).
    const upi = await signalsOf("shared_payout_account", upiFriend.user.id)
    expect(upi.map((s) => s.detail)).toEqual(["A player tried to add the payout account upi:kiran.rao@oksbi, which another player holds; refused"])
  })

  it("takes a week range (Sunday to Saturday)", async () => {
    const { token } = await signUpPlayer(server)
    const res = await request(server.url, "/api/v1/get-weekly-refferal-transactions?startDate=2026-01-04&endDate=2026-01-24", { token })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(3)
    expect((await request(server.url, "/api/v1/get-weekly-refferal-transactions?startDate=soon", { token })).status).toBe(400)
  })
})
