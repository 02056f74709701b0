import { describe, expect, it } from "vitest"
import { DEFAULT_BONUS_RULES } from "../../src/domain/bonusRules.ts"
import { expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { freshKey, fund } from "./payments-support.ts"

/**
 * The bonus and referral rules on the desk's Settings, on the real server:
 * a change applies to the next grant (never to a bonus already granted), the
 * player site states the rules it has now, bad rules change nothing, only
 * DIRECTOR and ADMIN may change them, and each change is audited.
 */
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerVerifies })

const PATH = "/api/v1/desk/bonus-rules"
const rulesNow = async () => (await request(server.url, PATH, { token: server.admin })).body.data
const save = (json: unknown, token = server.admin) => request(server.url, PATH, { method: "PUT", token, json, headers: { "idempotency-key": freshKey() } })
const bonuses = async (token: string) => (await request(server.url, "/api/v1/bonus-data", { token })).body.data
const auditOf = async () =>
  (await request(server.url, "/api/v1/desk/audit?action=settings.bonusRules", { token: server.director })).body.data.items as Array<{ actor: string; subjectId: string; before: unknown; after: unknown }>
const qualification = (userId: string) =>
  server.sql((sql) => sql<{ reward: string; wageringRequired: string }>`SELECT reward::text, wagering_required::text FROM referral_qualifications WHERE referred_user_id = ${userId}`)

describe("bonus and referral rules", () => {
  it("start as the values the site always had", async () => {
    expect(await rulesNow()).toEqual(DEFAULT_BONUS_RULES)
  })

  it("grant the next deposit by the new rule, leave granted bonuses alone, and are audited before and after", async () => {
    const before = await rulesNow()
    const early = await signUpPlayer(server)
    await fund(server, early.token, 2000, server.admin)
    expect((await bonuses(early.token)).bonuses[0]).toMatchObject({ amount: 2000, wageringRequired: 10_000 })

    const next = { welcome: { code: " FIFTY50 ", title: "50% welcome bonus", percent: 50, cap: 750.5, wagerTimes: 3 }, referral: { percent: 20, cap: 300, wagerTimes: 2 } }
    const saved = await save(next)
    expect(saved.body.meta).toMatchObject({ code: 200 })
    expect(saved.body.data.welcome.code).toBe("FIFTY50")
    expect(await rulesNow()).toEqual(saved.body.data)

    const referrer = await signUpPlayer(server, { name: "Asha Verma", headers: { "x-forwarded-for": "198.51.100.61" } })
    const player = await signUpPlayer(server, { affiliateCode: referrer.user.referralCode, headers: { "x-forwarded-for": "198.51.100.62" } })
    expect((await bonuses(player.token)).welcome).toEqual({ percent: 50, cap: 750.5, wagerTimes: 3 })
    expect((await request(server.url, "/api/v1/get-refferal-users", { token: referrer.token })).body.data.rule).toEqual({ percent: 20, cap: 300, wagerTimes: 2 })
    await fund(server, player.token, 1000, server.admin)
    expect((await bonuses(player.token)).bonuses[0]).toMatchObject({ code: "FIFTY50", title: "50% welcome bonus", amount: 500, wageringRequired: 1500 })
    expect(await qualification(player.user.id)).toEqual([{ reward: "20000", wageringRequired: "200000" }])
    const big = await signUpPlayer(server)
    await fund(server, big.token, 10_000, server.admin)
    expect((await bonuses(big.token)).bonuses[0]).toMatchObject({ amount: 750.5, wageringRequired: 2251.5 })
    // Granted before the change: as it was.
    expect((await bonuses(early.token)).bonuses[0]).toMatchObject({ code: "WELCOME100", amount: 2000, wageringRequired: 10_000 })

    const [line] = await auditOf()
    expect(line).toMatchObject({ actor: "admin", subjectId: "bonusRules", before, after: saved.body.data })
    expect((await save(DEFAULT_BONUS_RULES, server.director)).body.meta).toMatchObject({ code: 200 })
  })

  it("refuse bad rules with the envelope and change nothing", async () => {
    const current = await rulesNow()
    const lines = (await auditOf()).length
    const welcome = (change: object) => ({ ...current, welcome: { ...current.welcome, ...change } })
    const referral = (change: object) => ({ ...current, referral: { ...current.referral, ...change } })
    const bad = [
      [welcome({ percent: -10 }), "The welcome bonus's percent is a whole number from 1 to 500."],
      [welcome({ percent: 12.5 }), "The welcome bonus's percent is a whole number from 1 to 500."],
      [welcome({ cap: 0 }), "The welcome bonus's cap is more than ₹0 and at most ₹10,00,000.00, in rupees and paise."],
      [welcome({ cap: 10.001 }), "The welcome bonus's cap is more than ₹0 and at most ₹10,00,000.00, in rupees and paise."],
      [welcome({ wagerTimes: 1000 }), "The welcome bonus's wagering is a whole number of times from 0 to 50."],
      [welcome({ code: "new code" }), "The welcome bonus's code is 1 to 32 capital letters, digits, - or _."],
      [welcome({ title: "  " }), "The welcome bonus's title is 1 to 60 characters."],
      [referral({ percent: 101 }), "The referral reward's percent is a whole number from 1 to 100."],
      [referral({ wagerTimes: 0 }), "The referral reward's wagering is a whole number of times from 1 to 50."]
    ] as const
    for (const [payload, message] of bad) {
      const answer = await save(payload)
      expect(answer.status, message).toBe(400)
      expect(answer.body.meta).toMatchObject({ code: 400, message, error: "InvalidInput" })
    }
    const { referral: _, ...missing } = current
    expect((await save(missing)).body.meta).toMatchObject({ code: 400, error: "InvalidInput" })
    expect((await save(welcome({ percent: "50" }))).body.meta).toMatchObject({ code: 400, error: "InvalidInput" })
    expect(await rulesNow()).toEqual(current)
    expect(await auditOf()).toHaveLength(lines)
  })

  it("are refused to support (403) and to players (401/403)", async () => {
    const current = await rulesNow()
    expect((await request(server.url, PATH, { token: server.support })).status).toBe(403)
    const refused = await save({ ...current, welcome: { ...current.welcome, percent: 400 } }, server.support)
    expect(refused.status).toBe(403)
    expect(refused.body.meta).toMatchObject({ code: 403 })
    const player = await signUpPlayer(server)
    expect((await save(current, player.token)).status).toBeGreaterThanOrEqual(401)
    expect((await save(current, "")).status).toBe(401)
    expect(await rulesNow()).toEqual(current)
  })
})
