import type { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ServerConfig } from "../../server/config.ts"
import { expectLedgerVerifies, freshPhone, outboxCodes, request, runAdmin, SERVER_START_TIMEOUT, signUpPlayer, startServer, tempDir, type TestServer, useServer } from "./helpers.ts"
import { addUpi, adminToken, createDeposit, fund } from "./payments-support.ts"
import { expectRefused, limitOf, protectionOf, refusalOf, setLimit } from "./protection-support.ts"

/** The operator's side: compliance switches over the admin API and the command line, the player view, the audit. */
const server = useServer({ config: { trustProxy: 1 }, signIn: ["admin"], afterEach: expectLedgerVerifies })

const settings = (json?: unknown) =>
  json === undefined
    ? request(server.url, "/api/v1/admin/protection-settings", { token: server.admin })
    : request(server.url, "/api/v1/admin/protection-settings", { method: "PUT", token: server.admin, json })

const signUp = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(server.url, "/identity/user/sign-up", {
    method: "POST",
    headers,
    json: { name: "Region Test", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, ...json }
  })

describe("operator endpoints", () => {
  it("are for operators: players get 403, visitors 401", async () => {
    const { token, user } = await signUpPlayer(server)
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/admin/protection-settings"],
      ["PUT", "/api/v1/admin/protection-settings", { depositsOpen: false }],
      ["GET", `/api/v1/admin/protection/${user.username}`]
    ]
    for (const [method, path, json] of calls) {
      expectRefused(await request(server.url, path, { method, token, ...(json !== undefined ? { json } : {}) }), 403, "Forbidden")
      expectRefused(await request(server.url, path, { method, ...(json !== undefined ? { json } : {}) }), 401, "SessionEnded")
    }
    expect((await settings()).body.data.depositsOpen).toBe(true)
  })
})

describe("blocked regions", () => {
  it("refuse a sign-up from a state the operator does not serve, declared or seen by a trusted proxy", async () => {
    expect((await settings()).body.data).toEqual({ blockedRegions: [], regionHeader: null, depositsOpen: true, defaultLimits: [] })
    const saved = await settings({ blockedRegions: ["TS", "AP", "TS"] })
    expect(saved.status).toBe(200)
    expect(saved.body.data.blockedRegions).toEqual(["AP", "TS"])
    expect((await request(server.url, "/api/v1/get-all-app-settings")).body.data.compliance).toEqual({ depositsOpen: true, blockedRegions: ["AP", "TS"] })

    const blocked = freshPhone()
    expectRefused(await signUp({ mobile_no: blocked, region: "TS" }), 403, "RegionBlocked", "Khel is not available to residents of Telangana.")
    expect(await server.sql((sql) => sql`SELECT 1 FROM users WHERE mobile_no = ${blocked}`)).toHaveLength(0)
    expect(outboxCodes(server.dataDir, blocked)).toHaveLength(0)

    // The server runs with TRUST_PROXY on: once the operator names the header, the proxy's word counts too.
    const seen = freshPhone()
    expect((await signUp({ mobile_no: seen, region: "MH" }, { "x-visitor-region": "IN-AP" })).status).toBe(200)
    await settings({ regionHeader: "x-visitor-region" })
    const elsewhere = freshPhone()
    expectRefused(await signUp({ mobile_no: elsewhere, region: "MH" }, { "x-visitor-region": "IN-AP" }), 403, "RegionBlocked",
      "Khel is not available in Andhra Pradesh, where you are signing up from.")
    expect((await signUp({ mobile_no: elsewhere, region: "MH" }, { "x-visitor-region": "IN-MH" })).status).toBe(200)

    for (const [json, message] of [
      [{ blockedRegions: ["XX"] }, /state you live in/],
      [{ regionHeader: "Not A Header" }, /regionHeader/],
      [{ defaultLimits: [{ kind: "deposit", period: "day", amount: 0 }] }, "Default day deposit limit: The amount must be more than ₹0"],
      [{ defaultLimits: [{ kind: "loss", period: "week", amount: 5 }, { kind: "loss", period: "week", amount: 6 }] }, "Give at most one default limit for each kind and period."]
    ] as const) {
      expectRefused(await settings(json), 400, "InvalidInput", message)
    }
    await settings({ blockedRegions: [], regionHeader: null })
  })

  it("close a served player's play when their state is blocked later: only withdrawals stay open", async () => {
    const { token } = await signUpPlayer(server, { region: "KA" })
    await fund(server, token, 1000, server.admin)
    const accountId = await addUpi(server, token)
    await settings({ blockedRegions: ["KA"] })
    expect((await protectionOf(server, token)).closed).toEqual({
      reason: "RegionBlocked", until: null, message: "Khel is not available in Karnataka. You can still withdraw your balance."
    })
    expectRefused(await createDeposit(server, token, 500), 403, "RegionBlocked")
    expectRefused(await request(server.url, "/api/v1/live-casino-dcs/khel-dt-1", { token }), 403, "RegionBlocked")
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 100, accountId } })).status).toBe(200)
    await settings({ blockedRegions: [] })
    expect((await createDeposit(server, token, 500)).status).toBe(200)
  })
})

describe("real-money deposits", () => {
  it("closed: deposits are refused, the site says so, operators' demo credit still works", async () => {
    const { token, user } = await signUpPlayer(server)
    await settings({ depositsOpen: false })
    expect((await request(server.url, "/api/v1/get-all-app-settings")).body.data.compliance.depositsOpen).toBe(false)
    expectRefused(await createDeposit(server, token, 500), 422, "DepositsClosed", "Real-money deposits are closed at the moment: Khel runs on demo credit.")
    expect((await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: user.username, amount: 5000 } })).status).toBe(200)
    await settings({ depositsOpen: true })
    expect((await createDeposit(server, token, 500)).status).toBe(200)
  })
})

describe("default limits", () => {
  it("apply to players who sign up after they are set, who can lower them at once and raise them after the cooling-off", async () => {
    const before = await signUpPlayer(server)
    await settings({ defaultLimits: [{ kind: "deposit", period: "day", amount: 5000 }, { kind: "loss", period: "week", amount: 2000 }] })
    const after = await signUpPlayer(server)
    const state = await protectionOf(server, after.token)
    expect(limitOf(state, "deposit", "day")).toMatchObject({ amount: 5000, remaining: 5000 })
    expect(limitOf(state, "loss", "week")).toMatchObject({ amount: 2000 })
    expect((await protectionOf(server, before.token)).limits.every((limit) => limit.amount === null)).toBe(true)
    expect((await setLimit(server, after.token, "deposit", "day", 3000)).body.meta.message).toBe("Your 24-hour deposit limit of ₹3,000.00 is in force now.")
    expect(limitOf((await setLimit(server, after.token, "deposit", "day", 6000)).body.data, "deposit", "day")).toMatchObject({ amount: 3000, pending: { amount: 6000 } })
    await settings({ defaultLimits: [] })
  })
})

describe("the operator's view and the audit", () => {
  it("shows a player's protection and its history, which nobody can edit", async () => {
    const { token, user } = await signUpPlayer(server, { region: "GJ" })
    await setLimit(server, token, "loss", "month", 10_000)
    const view = await request(server.url, `/api/v1/admin/protection/${user.username}`, { token: server.admin })
    expect(view.status).toBe(200)
    expect(view.body.data.user).toMatchObject({ id: user.id, username: user.username, region: "GJ", ageConfirmedAt: expect.any(String) })
    expect(limitOf(view.body.data.protection, "loss", "month").amount).toBe(10_000)
    expect(view.body.data.audit.map((entry: { action: string }) => entry.action)).toEqual(["limit.set", "signup"])
    expect(view.body.data.audit[0]).toMatchObject({ actor: user.id, ip: expect.stringMatching(/127\.0\.0\.1/), detail: { kind: "loss", period: "month", amount: 10_000_00, previous: null } })
    expect((await request(server.url, `/api/v1/admin/protection/${user.id}`, { token: server.admin })).body.data.user.username).toBe(user.username)
    expectRefused(await request(server.url, "/api/v1/admin/protection/nobody-at-all", { token: server.admin }), 404, "NotFound", "There is no player nobody-at-all.")

    const switches = await server.sql((sql) => sql<{ action: string }>`SELECT action FROM protection_audit WHERE user_id IS NULL`)
    expect(switches.length).toBeGreaterThan(0)
    expect(switches.every((entry) => entry.action === "settings.update")).toBe(true)
    for (const statement of [
      (sql: SqlClient.SqlClient) => sql`UPDATE protection_audit SET action = 'nothing' WHERE user_id = ${user.id}`,
      (sql: SqlClient.SqlClient) => sql`DELETE FROM protection_audit WHERE user_id = ${user.id}`,
      (sql: SqlClient.SqlClient) => sql`TRUNCATE protection_audit`
    ]) {
      expect(await refusalOf(server.sql(statement))).toMatch(/the protection audit is append-only/)
    }
  })
})

describe("settings the operator cannot switch on in production", () => {
  it("has no test clock unless TEST_CLOCK is on, and refuses TEST_CLOCK when NODE_ENV=production", async () => {
    expectRefused(await request(server.url, "/api/v1/test/clock"), 404, "NotFound")
    expectRefused(await request(server.url, "/api/v1/test/clock", { method: "POST", json: { seconds: 60 } }), 404, "NotFound")
    expect(() => ServerConfig.fromEnv({ NODE_ENV: "production", TEST_CLOCK: "on" })).toThrow(/TEST_CLOCK is for tests/)
    expect(ServerConfig.fromEnv({ TEST_CLOCK: "on", TRUST_PROXY: "true" })).toMatchObject({ testClock: true, trustProxy: 1 })
    expect(ServerConfig.fromEnv({})).toMatchObject({ testClock: false, trustProxy: 0 })
  })

  it("believes no region header without TRUST_PROXY", async () => {
    const direct = await startServer()
    try {
      const operator = await adminToken(direct)
      await request(direct.url, "/api/v1/admin/protection-settings", { method: "PUT", token: operator, json: { blockedRegions: ["AP"], regionHeader: "x-visitor-region" } })
      const res = await request(direct.url, "/identity/user/sign-up", {
        method: "POST",
        headers: { "x-visitor-region": "IN-AP" },
        json: { name: "Direct", mobile_no: freshPhone(), password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }
      })
      expect(res.status).toBe(200)
    } finally {
      await direct.close()
    }
  }, SERVER_START_TIMEOUT)
})

/**
 * Each step runs `npm run admin` as its own process (a Node start and, on PGlite, the embedded database opened):
 * seconds on an idle machine, many more on a loaded one, so every step has its own generous deadline.
 */
const STEP_TIMEOUT = 300_000

describe("npm run admin -- protection and the switches", () => {
  // Started and stopped here: on PGlite the server lets go of its folder before the CLI runs.
  const servers: Array<TestServer> = []
  let own: TestServer
  let username = ""
  const admin = (args: ReadonlyArray<string>) => runAdmin(own, args)

  beforeAll(async () => {
    own = await startServer({ dataDir: tempDir("protection-cli") })
    servers.push(own)
    const { token, user } = await signUpPlayer(own, { region: "TN" })
    username = user.username
    await setLimit(own, token, "deposit", "week", 2500)
    // PGlite: the server lets go of the folder first (one process owns it).
    if (own.engine === "pglite") {
      await own.close()
      servers.pop()
    }
  }, STEP_TIMEOUT)

  afterAll(async () => {
    for (const running of servers.reverse()) await running.close()
  })

  it("shows a player's protection, and says when there is no such player", async () => {
    const shown = await admin(["protection", username])
    expect(shown.code, shown.stderr).toBe(0)
    for (const text of [`player: ${username}`, "region: TN (Tamil Nadu)", "play: open", "2500.00", "reality check: off", "time-out: none", "self-exclusion: none", "limit.set", "signup"]) {
      expect(shown.stdout).toContain(text)
    }
    const missing = await admin(["protection", "nobody-at-all"])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("There is no player nobody-at-all.")
  }, STEP_TIMEOUT)

  it("blocks and unblocks regions, and closes real-money deposits", async () => {
    expect((await admin(["block-region", "ts", "IN-AP"])).stdout).toContain("blocked regions: AP (Andhra Pradesh), TS (Telangana)")
    expect((await admin(["unblock-region", "AP"])).stdout).toContain("blocked regions: TS (Telangana)")
    expect((await admin(["real-money-deposits", "closed"])).stdout).toContain("real-money deposits: closed")
  }, STEP_TIMEOUT)

  it("sets a default limit and the proxy's region header, and answers a wrong amount with its usage (exit 2)", async () => {
    expect((await admin(["default-limit", "loss", "day", "750"])).stdout).toContain("750.00")
    expect((await admin(["region-header", "CF-Region-Code"])).stdout).toContain("region header from a trusted proxy: cf-region-code")
    const wrong = await admin(["default-limit", "loss", "day", "abc"])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain("Usage: npm run admin -- default-limit <deposit|loss> <day|week|month> <rupees|none>")
  }, STEP_TIMEOUT)

  it("leaves the switches as set, each change audited as the command line's", async () => {
    let checker = own
    if (own.engine === "pglite") {
      checker = await startServer({ dataDir: own.dataDir })
      servers.push(checker)
    }
    const operator = await adminToken(checker)
    const saved = await request(checker.url, "/api/v1/admin/protection-settings", { token: operator })
    expect(saved.body.data).toEqual({ blockedRegions: ["TS"], regionHeader: "cf-region-code", depositsOpen: false, defaultLimits: [{ kind: "loss", period: "day", amount: 750 }] })
    const actors = await checker.sql((sql) => sql<{ actor: string }>`SELECT DISTINCT actor FROM protection_audit WHERE user_id IS NULL`)
    expect(actors).toEqual([{ actor: "cli" }])
  }, STEP_TIMEOUT)
})
