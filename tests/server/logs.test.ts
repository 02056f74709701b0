import type { ChildProcess } from "node:child_process"
import { afterAll, describe, expect, it } from "vitest"
import { freshPhone, launchServer, request, SERVER_START_TIMEOUT, tempDir, waitForCode } from "./helpers.ts"
import { freshDatabase } from "./payments-support.ts"

/**
 * A run's log, as an operator's log shipper reads it: the real server process (`node server/main.ts`, JSON
 * logs), taken through sign-up, sign-in, a wrong password, a password reset, a bet and a casino launch at the
 * most talkative level; then every line is read. Each is one JSON object with its level, time, server and trace,
 * and no line holds a token, a password or a code the run used.
 */
const children: Array<ChildProcess> = []
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
  for (const cleanup of cleanups) await cleanup()
})

const start = async (env: Record<string, string>) => {
  const started = await launchServer(env)
  children.push(started.child)
  return started
}

/** Every string in a log record, wherever it sits (messages, annotations, causes). */
const stringsOf = (value: unknown): Array<string> =>
  typeof value === "string" ? [value] : value !== null && typeof value === "object" ? Object.values(value).flatMap(stringsOf) : []

describe("logs", () => {
  it("writes one JSON object per line, with level, time, server, trace and capability, and never a secret", async () => {
    const dataDir = tempDir("logs")
    const database = process.env.DATABASE_URL ? await freshDatabase() : undefined
    if (database) cleanups.push(database.drop)
    const { child, url, output } = await start({
      DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "", SERVER_ID: "log-test", LOG_FORMAT: "json", LOG_LEVEL: "debug", LOG_REQUESTS: "true"
    })
    const secrets: Array<string> = []
    const codes: Array<string> = []
    const post = (path: string, json: unknown, token?: string) => request(url, path, { method: "POST", json, ...(token ? { token } : {}) })

    // A new player: the sign-up code, the session's token.
    const mobileNo = freshPhone()
    const password = "Logged@Never1"
    secrets.push(password)
    expect((await post("/identity/user/sign-up", { name: "Log Test", mobile_no: mobileNo, password, confirmPassword: password, ageConfirmed: true, region: "MH" })).status).toBe(200)
    const signUpCode = await waitForCode(dataDir, mobileNo, "signup")
    codes.push(signUpCode)
    const verified = await post("/identity/user/verify-otp", { mobile_no: mobileNo, otp: signUpCode })
    expect(verified.status).toBe(200)
    secrets.push(verified.body.meta.token)
    const wrongPassword = "Wrong@Guess42"
    secrets.push(wrongPassword)
    expect((await post("/identity/user/login", { mobile_no: mobileNo, password: wrongPassword })).status).not.toBe(200)
    const signedIn = await post("/identity/user/login", { mobile_no: mobileNo, password })
    secrets.push(signedIn.body.meta.token)
    const changed = "Changed@Pass77"
    secrets.push(changed)
    const change = await post("/identity/user/change-password", { old_password: password, password: changed, confirm_password: changed }, signedIn.body.meta.token)
    expect(change.status).toBe(200)
    secrets.push(change.body.meta.token)

    // A reset of the demo player's password: its code, the new password.
    expect((await post("/identity/user/forgot-password", { mobile_no: "+919000000001" })).status).toBe(200)
    const resetCode = await waitForCode(dataDir, "+919000000001", "reset")
    codes.push(resetCode)
    const reset = "Reset@Secret9"
    secrets.push(reset)
    expect((await post("/identity/user/forgot-password", { mobile_no: "+919000000001", otp: resetCode, password: reset, confirm_password: reset })).status).toBe(200)
    const demo = await post("/identity/user/login", { username: "demo", password: reset })
    secrets.push(demo.body.meta.token)

    // A bet refused and an operator's session; a casino launch's own token.
    const refused = await post("/api/v1/bet-sport", { marketId: "no-such-market", selectionId: "1", selectionType: "back", odds: 2, stake: 100 }, demo.body.meta.token)
    expect(refused.status).toBe(404)
    const admin = await post("/identity/user/login", { username: "admin", password: "Admin@1234" })
    secrets.push(admin.body.meta.token, "Admin@1234")
    const game = await request(url, "/api/v1/live-casino-dcs/khel-dt-1", { token: demo.body.meta.token })
    expect(game.status).toBe(200)
    secrets.push(new URL(game.body.data as string, url).searchParams.get("token")!)

    child.kill("SIGTERM")
    await new Promise((resolve) => child.once("exit", resolve))

    const lines = output().split("\n").filter((line) => line.trim() !== "")
    expect(lines.length).toBeGreaterThan(10)
    const records = lines.map((line) => {
      const record = JSON.parse(line) as Record<string, unknown>
      expect(record).toMatchObject({ level: expect.any(String), time: expect.any(String), serverId: "log-test" })
      return record
    })
    // A request's lines carry its trace; an endpoint's carry its capability.
    const requestLines = records.filter((r) => r["http.url"] !== undefined)
    expect(requestLines.length).toBeGreaterThan(5)
    for (const r of requestLines) expect(r.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(records.some((r) => r.capability === "identity")).toBe(true)
    expect(records.some((r) => r.capability === "database")).toBe(true)

    for (const record of records) {
      const { time: _time, ...rest } = record
      for (const text of stringsOf(rest)) {
        for (const secret of secrets) expect(text, `a secret in ${JSON.stringify(record)}`).not.toContain(secret)
        // A code is four digits: it counts as logged only standing alone (not inside an id or a number).
        const bare = text.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{16,}/g, "")
        for (const code of codes) expect(bare, `a code in ${JSON.stringify(record)}`).not.toMatch(new RegExp(`(?<![\\w.,:-])${code}(?![\\w.,:-])`))
      }
    }
  }, SERVER_START_TIMEOUT)
})
