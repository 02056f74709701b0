import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BEACONS_PER_MINUTE } from "../../server/vitals/http.ts"
import { request, startServer, tempDir, type TestServer } from "./helpers.ts"

const run = promisify(execFile)

let server: TestServer
const dataDir = tempDir("vitals")

beforeAll(async () => {
  server = await startServer({ dataDir })
})
afterAll(async () => {
  await server?.close()
})

const count = () => server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM web_vitals`).then((rows) => rows[0]!.n)

const beacon = (body: unknown, headers: Record<string, string> = {}) =>
  request(server.url, "/api/v1/vitals", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) })

const batch = {
  route: "/event",
  device: "mobile",
  connection: "4g",
  vitals: [
    { name: "LCP", value: 2100, rating: "good" },
    { name: "INP", value: 180, rating: "good" },
    { name: "CLS", value: 0.02, rating: "good" },
    { name: "TTFB", value: 420.5, rating: "good" }
  ]
}

describe("real-user vitals", () => {
  it("stores a beacon's batch as one row per vital, with no session needed", async () => {
    const before = await count()
    const res = await beacon(batch)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ meta: { code: 200, message: "Recorded" }, data: null })
    expect(await count()).toBe(before + 4)
    const rows = await server.sql((sql) => sql<{ name: string; value: number; route: string; device: string; connection: string }>`
      SELECT name, value, route, device, connection FROM web_vitals WHERE route = '/event' ORDER BY name`)
    expect(rows).toEqual([
      { name: "CLS", value: 0.02, route: "/event", device: "mobile", connection: "4g" },
      { name: "INP", value: 180, route: "/event", device: "mobile", connection: "4g" },
      { name: "LCP", value: 2100, route: "/event", device: "mobile", connection: "4g" },
      { name: "TTFB", value: 420.5, route: "/event", device: "mobile", connection: "4g" }
    ])
  })

  it("refuses a bad batch with an envelope and stores nothing of it", async () => {
    const before = await count()
    const cases: Array<unknown> = [
      { ...batch, route: "/event?id=123" },
      { ...batch, route: "https://elsewhere.example/x" },
      { ...batch, device: "fridge" },
      { ...batch, vitals: [] },
      { ...batch, vitals: [{ name: "FID", value: 10, rating: "good" }] },
      { ...batch, vitals: [{ name: "LCP", value: -1, rating: "good" }] },
      { ...batch, vitals: [{ name: "LCP", value: 1e9, rating: "good" }] },
      { ...batch, vitals: Array.from({ length: 9 }, () => batch.vitals[0]) },
      "not json"
    ]
    for (const body of cases) {
      const res = await beacon(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.meta).toMatchObject({ code: 400, error: "InvalidInput" })
      expect(res.body.meta.message).toMatch(/^Invalid request/)
    }
    expect(await count()).toBe(before)
  })

  it("refuses a body over the size cap before reading it", async () => {
    const before = await count()
    const res = await beacon({ ...batch, padding: "x".repeat(4000) })
    expect(res.status).toBe(413)
    expect(res.body.meta).toMatchObject({ code: 413, error: "PayloadTooLarge", message: "A vitals report is at most 2048 bytes." })
    expect(await count()).toBe(before)
  })

  it("limits beacons per address", async () => {
    // Earlier tests of this file spent some of this address's minute; spend the rest, then one more is refused.
    let status = 200
    for (let i = 0; i < BEACONS_PER_MINUTE + 1 && status === 200; i++) status = (await beacon({ ...batch, route: "/flood" })).status
    expect(status).toBe(429)
    const refused = await beacon(batch)
    expect(refused.body.meta).toMatchObject({ code: 429, error: "RateLimited" })
  })

  it("prints the 75th percentile per route and device class on the command line", async () => {
    await server.sql((sql) => sql`DELETE FROM web_vitals`)
    // Desktop on /sports: LCP 1000, 2000, 3000, 4000 -> p75 3250 (linear interpolation), INP 100..400 -> 325.
    await server.sql((sql) => sql`
      INSERT INTO web_vitals (name, value, rating, route, device)
      SELECT v.name, v.value, 'good', '/sports', 'desktop'
        FROM (VALUES ('LCP', 1000), ('LCP', 2000), ('LCP', 3000), ('LCP', 4000), ('INP', 100), ('INP', 200), ('INP', 300), ('INP', 400)) AS v (name, value)`)
    // A mobile visit to / measured 40 days ago: outside --days 7, inside --days 60.
    await server.sql((sql) => sql`
      INSERT INTO web_vitals (name, value, rating, route, device, recorded_at) VALUES ('LCP', 5000, 'poor', '/', 'mobile', now() - interval '40 days')`)
    if (!server.databaseUrl) await server.close()
    const env = server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : { DATA_DIR: dataDir, DATABASE_URL: "" }
    const admin = (args: Array<string>) => run(process.execPath, ["server/admin.ts", "vitals", ...args], { env: { ...process.env, ...env }, timeout: 120_000 })
    // One after the other: the embedded database has one owner at a time.
    const weekRun = await admin([])
    const sixtyRun = await admin(["--days", "60"])
    const refused = await admin(["--days", "zero"]).then(() => ({ code: 0 }), (error: { code: number }) => error)
    const week = weekRun.stdout
    expect(week).toContain("last 7 days")
    expect(week).toMatch(/\/sports\s+desktop\s+4\s+3250ms needs work\s+325ms needs work\s+-\s+-/)
    expect(week).not.toMatch(/mobile/)
    expect(sixtyRun.stdout).toMatch(/\/\s+mobile\s+1\s+5000ms poor/)
    expect(refused.code).toBe(2)
  }, 180_000)
})
