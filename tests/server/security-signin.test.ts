import { afterAll, describe, expect, it, vi } from "vitest"
import { DEFAULT_LIMITS } from "../../server/config.ts"
import { FREE_FAILURES, signInDelaySeconds } from "../../server/identity/Throttle.ts"
import { addressesFrom, advanceClock, PRODUCTION_LIMITS_BEHIND_PROXY, request, signUpPlayer, tempDir, useServer } from "./helpers.ts"

/**
 * Sign-in throttling with the production limits. The server trusts one proxy,
 * so each test speaks from addresses of its own (X-Forwarded-For).
 */
const server = useServer({ config: PRODUCTION_LIMITS_BEHIND_PROXY })
afterAll(() => {
  vi.useRealTimers()
})

const freshAddress = addressesFrom("203.0.113")

/** Fifty sign-ins, each one argon2 verification (19 MiB, 2 passes): seconds on an idle machine, minutes on a loaded one. */
const ARGON2_HEAVY_TIMEOUT = 300_000

/** The wait a throttled answer names, in seconds. */
const waitOf = (message: string) => {
  const match = /^Too many failed attempts\. Try again in (\d+) (second|minute)s?\.$/.exec(message)
  if (!match) throw new Error(`not a wait: ${message}`)
  return Number(match[1]) * (match[2] === "minute" ? 60 : 1)
}

const login = (from: string, json: unknown) =>
  request(server.url, "/identity/user/login", { method: "POST", json, headers: { "x-forwarded-for": from } })

describe("sign-in throttling", () => {
  it("waits grow for an (address, account) pair: 4 free tries, then 30 s, 1 min, 2 min…", () => {
    expect(Array.from({ length: 12 }, (_, i) => signInDelaySeconds(i + 1))).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900, 900])
  })

  it("throttles the guesser, not the account: the owner signs in from elsewhere, and waits grow for the guesser", async () => {
    const player = await signUpPlayer(server)
    const attacker = freshAddress()
    const owner = freshAddress()
    for (let i = 0; i < FREE_FAILURES + 1; i++) {
      const res = await login(attacker, { username: player.user.username, password: "Wrong@123" })
      expect(res.status).toBe(422)
      expect(res.body.meta.error).toBe("InvalidCredentials")
    }
    // The guesser now waits 30 s, even with the right password…
    const held = await login(attacker, { username: player.user.username, password: player.password })
    expect(held.status).toBe(429)
    expect(held.body.meta).toMatchObject({ code: 429, error: "RateLimited" })
    expect(waitOf(held.body.meta.message)).toBeLessThanOrEqual(30)
    // …while the owner, from their own address, is not held up at all.
    expect((await login(owner, { username: player.user.username, password: player.password })).status).toBe(200)
    // After the wait, one more wrong guess costs a minute: 31 s later it is still waiting, 61 s later it is not.
    advanceClock(31_000)
    expect((await login(attacker, { username: player.user.username, password: "Wrong@123" })).status).toBe(422)
    const longer = await login(attacker, { username: player.user.username, password: player.password })
    expect(longer.status).toBe(429)
    expect(waitOf(longer.body.meta.message)).toBeGreaterThan(30)
    expect(waitOf(longer.body.meta.message)).toBeLessThanOrEqual(60)
    advanceClock(31_000)
    expect((await login(attacker, { username: player.user.username, password: player.password })).status).toBe(429)
    advanceClock(30_000)
    // A success clears the pair's count.
    expect((await login(attacker, { username: player.user.username, password: player.password })).status).toBe(200)
    expect((await login(attacker, { username: player.user.username, password: "Wrong@123" })).status).toBe(422)
    expect((await login(attacker, { username: player.user.username, password: player.password })).status).toBe(200)
  })

  it("answers an unknown account exactly like a known one, try after try", async () => {
    const player = await signUpPlayer(server)
    const answers = async (mobileNo: string) => {
      const from = freshAddress()
      const seen: Array<unknown> = []
      for (let i = 0; i < FREE_FAILURES + 2; i++) {
        const res = await login(from, { mobile_no: mobileNo, password: "Wrong@123" })
        seen.push([res.status, res.body.meta.error, res.body.meta.message.replace(/\d+ seconds/, "N seconds")])
      }
      return seen
    }
    const known = await answers(player.mobileNo)
    const unknown = await answers("+919999912345")
    expect(unknown).toEqual(known)
    expect(known.at(-2)).toEqual([422, "InvalidCredentials", "Invalid mobile number or password"])
    expect(known.at(-1)).toEqual([429, "RateLimited", "Too many failed attempts. Try again in N seconds."])
  })

  it("limits failed sign-ins per address across every account, and only there", async () => {
    const from = freshAddress()
    for (let i = 0; i < DEFAULT_LIMITS.signInFailuresPerAddress; i++) {
      const res = await login(from, { username: `nobody${i}`, password: "Wrong@123" })
      expect(res.status, `try ${i + 1}`).toBe(422)
    }
    const blocked = await login(from, { username: "demo", password: "Demo@1234" })
    expect(blocked.status).toBe(429)
    expect(blocked.body.meta.message).toMatch(/^Too many failed sign-ins from your network\. Try again in 1[45] minutes\.$/)
    expect((await login(freshAddress(), { username: "demo", password: "Demo@1234" })).status).toBe(200)
    advanceClock(15 * 60_000 + 1000)
    expect((await login(from, { username: "demo", password: "Demo@1234" })).status).toBe(200)
  }, ARGON2_HEAVY_TIMEOUT)
})

/** On PostgreSQL the counters live in the database: a guesser held by one server is held by every server. */
describe.runIf(process.env.DATABASE_URL)("sign-in limits across servers", () => {
  const other = useServer({ config: () => ({ ...PRODUCTION_LIMITS_BEHIND_PROXY, databaseUrl: server.databaseUrl, dataDir: tempDir("second"), seedDemo: false }) })

  it("holds the guesser on a second server after their failures on the first, and lets the owner in on both", async () => {
    const player = await signUpPlayer(server)
    const attacker = freshAddress()
    for (let i = 0; i < FREE_FAILURES + 1; i++) {
      expect((await login(attacker, { username: player.user.username, password: "Wrong@123" })).status).toBe(422)
    }
    const elsewhere = await request(other.url, "/identity/user/login", {
      method: "POST",
      json: { username: player.user.username, password: player.password },
      headers: { "x-forwarded-for": attacker }
    })
    expect(elsewhere.status).toBe(429)
    expect(elsewhere.body.meta.error).toBe("RateLimited")
    const owner = await request(other.url, "/identity/user/login", {
      method: "POST",
      json: { username: player.user.username, password: player.password },
      headers: { "x-forwarded-for": freshAddress() }
    })
    expect(owner.status).toBe(200)
  })
})

describe("without TRUST_PROXY", () => {
  const direct = useServer({ config: { limits: { ...DEFAULT_LIMITS, signInFailuresPerAddress: 3 } } })

  it("ignores X-Forwarded-For: every claimed address is the socket's", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(direct.url, "/identity/user/login", {
        method: "POST",
        json: { username: `ghost${i}`, password: "Wrong@123" },
        headers: { "x-forwarded-for": `198.51.100.${i}` }
      })
      expect(res.status).toBe(422)
    }
    const spoofed = await request(direct.url, "/identity/user/login", {
      method: "POST",
      json: { username: "demo", password: "Demo@1234" },
      headers: { "x-forwarded-for": "198.51.100.77" }
    })
    expect(spoofed.status).toBe(429)
  })
})
