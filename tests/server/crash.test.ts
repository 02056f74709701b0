import { type ChildProcess, execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { deskSignIn } from "../http.ts"
import { freshUtr, launchServer, request, tempDir, waitForCode } from "./helpers.ts"
import { freshDatabase } from "./payments-support.ts"

const run = promisify(execFile)

/**
 * Crash safety: the real server process, killed with SIGKILL in the middle of
 * a stream of money-moving requests, then started again on the same data.
 * Every request it acknowledged must still be there, and the ledger must verify.
 */
const children: Array<ChildProcess> = []
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
  for (const cleanup of cleanups) await cleanup()
})

const launch = async (env: Record<string, string>) => {
  const started = await launchServer(env)
  children.push(started.child)
  return started
}

describe("crash safety", () => {
  it("loses no acknowledged request and keeps the ledger balanced across a SIGKILL", async () => {
    const dataDir = tempDir("crash")
    // On PostgreSQL the child gets a fresh database of its own.
    const database = process.env.DATABASE_URL ? await freshDatabase() : undefined
    if (database) cleanups.push(database.drop)
    const env = { DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "" }
    let { child, url } = await launch(env)

    // A player with money, a payout account, and pending deposits to approve.
    const mobileNo = `+9176${String(Date.now() % 1e8).padStart(8, "0")}`
    await request(url, "/identity/user/sign-up", { method: "POST", json: { name: "Crash Test", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "KA" } })
    const verified = await request(url, "/identity/user/verify-otp", { method: "POST", json: { mobile_no: mobileNo, otp: await waitForCode(dataDir, mobileNo, "signup") } })
    const token = verified.body.meta.token as string
    const admin = (await deskSignIn(url, "admin")).token
    await request(url, "/api/v1/admin/credit", { method: "POST", token: admin, json: { user: verified.body.data.username, amount: 100_000 } })
    const upi = await request(url, "/api/v1/account-details", { method: "POST", token, json: { type: "upi", accountNumber: `crash.${mobileNo.slice(-8)}@ybl`, accountHolderName: "Crash Test" } })
    const accounts = await request(url, "/api/v1/admin-account-details", { token })
    const depositAccount = accounts.body.data[0]._id as string

    // The stream: keyed withdrawals and deposit approvals, four at a time, until the kill.
    const acknowledged = { withdrawals: new Map<string, string>(), approvals: new Set<string>() }
    const sent: Array<{ key: string; kind: "withdrawal" | "deposit" }> = []
    let killed = false
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const key = `crash-${w}-${i}`
        try {
          if (i % 2 === 0) {
            sent.push({ key, kind: "withdrawal" })
            const res = await request(url, "/api/v1/withdrawal-request", { method: "POST", token, headers: { "idempotency-key": key }, json: { amount: 100, accountId: upi.body.data._id } })
            if (res.status === 200) acknowledged.withdrawals.set(key, res.body.data._id)
          } else {
            const deposit = await request(url, "/api/v1/admin-deposit-request", { method: "POST", token, json: { amount: 150, accountId: depositAccount, type: "upi", txnRef: freshUtr() } })
            if (deposit.status !== 200) continue
            const res = await request(url, `/api/v1/admin/deposit-requests/${deposit.body.data._id}/approve`, { method: "PUT", token: admin, json: {} })
            if (res.status === 200) acknowledged.approvals.add(deposit.body.data._id)
          }
        } catch {
          // The server died under this request: it was never acknowledged.
        }
      }
    }
    const workers = Promise.all([0, 1, 2, 3].map(worker))
    // Killed once enough has been acknowledged, with more requests in flight: however long that takes on this machine.
    while (acknowledged.withdrawals.size + acknowledged.approvals.size <= 5) await new Promise((resolve) => setTimeout(resolve, 20))
    killed = true
    child.kill("SIGKILL")
    await new Promise((resolve) => child.once("exit", resolve))
    await workers
    expect(acknowledged.withdrawals.size + acknowledged.approvals.size).toBeGreaterThan(5)

    ;({ child, url } = await launch(env))
    const all = (await request(url, `/api/v1/withdrawal-request?start_date=${new Date(Date.now() - 3600_000).toISOString()}`, { token })).body.data as Array<{ _id: string; amount: number }>
    const stored = new Set(all.map((w) => w._id))
    for (const id of acknowledged.withdrawals.values()) expect(stored.has(id)).toBe(true)
    const deposits = (await request(url, `/api/v1/admin/deposit-requests?status=approved&start_date=${new Date(Date.now() - 3600_000).toISOString()}`, { token: admin })).body.data as Array<{ _id: string }>
    const approved = new Set(deposits.map((d) => d._id))
    for (const id of acknowledged.approvals) expect(approved.has(id)).toBe(true)

    // Replaying every key sent answers what was stored, or does it now: never twice.
    for (const { key, kind } of sent) {
      if (kind !== "withdrawal") continue
      const res = await request(url, "/api/v1/withdrawal-request", { method: "POST", token, headers: { "idempotency-key": key }, json: { amount: 100, accountId: upi.body.data._id } })
      expect(res.status).toBe(200)
      if (acknowledged.withdrawals.has(key)) expect(res.body.data._id).toBe(acknowledged.withdrawals.get(key))
    }
    const after = (await request(url, `/api/v1/withdrawal-request?start_date=${new Date(Date.now() - 3600_000).toISOString()}`, { token })).body.data as Array<unknown>
    expect(after).toHaveLength(sent.filter((s) => s.kind === "withdrawal").length)
    const me = (await request(url, "/api/v1/getUserData", { token })).body.data
    expect(me.balance).toBe(100_000 + 150 * approved.size - 100 * after.length)

    // The operator's check, as an operator runs it (the embedded database needs the server stopped).
    child.kill("SIGTERM")
    await new Promise((resolve) => child.once("exit", resolve))
    const verify = await run(process.execPath, ["server/admin.ts", "verify-ledger"], { env: { ...process.env, ...env } })
    expect(verify.stdout).toContain("ledger OK")
  }, 300_000)
})
