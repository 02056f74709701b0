import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it } from "vitest"
import { PLAUSIBLE_MAX } from "../../src/domain/vitals.ts"
import { BEACONS_PER_MINUTE, BEACONS_PER_VISITOR_PER_MINUTE, NOT_OUR_PAGE } from "../../server/vitals/http.ts"
import { Vitals } from "../../server/vitals/Vitals.ts"
import { rawRequest, request, tempDir, useServer } from "./helpers.ts"

const run = promisify(execFile)

const dataDir = tempDir("vitals")
const server = useServer({ config: { dataDir } })

/** A browser that loaded one of the site's pages: the visitor cookie the page came with (name=value). */
const pageVisit = async () => {
  const page = await rawRequest(`${server.url}/`)
  const cookie = page.headers["set-cookie"]?.split(";")[0]
  expect(cookie).toMatch(/^khel_visitor=/)
  return cookie!
}
let browser: string

beforeAll(async () => {
  browser = await pageVisit()
})

const count = () => server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM web_vitals`).then((rows) => rows[0]!.n)

/** A beacon from `cookie`'s browser (null: none). */
const beacon = (body: unknown, cookie: string | null = browser) =>
  request(server.url, "/api/v1/vitals", {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })

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
  it("stores a beacon's batch as one row per vital, with no session needed, from the page's visitor", async () => {
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
    const visitors = await server.sql((sql) => sql<{ visitor: string }>`SELECT DISTINCT visitor FROM web_vitals WHERE route = '/event'`)
    expect(visitors).toEqual([{ visitor: browser.split("=")[1]!.split(".")[0] }])
  })

  it("takes beacons only from pages the site served: none without its signed visitor cookie, or with a forged one", async () => {
    const before = await count()
    const [id, issued] = browser.split("=")[1]!.split(".")
    for (const cookie of [null, `khel_visitor=${id}.${issued}.${"A".repeat(32)}`, `khel_visitor=${"B".repeat(22)}.${issued}.${"A".repeat(32)}`]) {
      const res = await beacon(batch, cookie)
      expect(res.body.meta, String(cookie)).toMatchObject({ code: 403, message: NOT_OUR_PAGE, error: "Forbidden" })
    }
    expect(await count()).toBe(before)
  })

  it("keeps a value past what a real visit measures as that most, and counts each visitor once, however many reports it sends", async () => {
    await server.sql((sql) => sql`DELETE FROM web_vitals WHERE route = '/poison'`)
    const lcp = (value: number) => ({ ...batch, route: "/poison", device: "desktop", vitals: [{ name: "LCP", value, rating: "poor" }] })
    // Eight real visitors: LCP 1000, 1500, … 4500 ms.
    for (let i = 0; i < 8; i++) expect((await beacon(lcp(1000 + 500 * i), await pageVisit())).status).toBe(200)
    // One browser sends as many 59,999 ms reports as it may, then is refused.
    const poisoner = await pageVisit()
    for (let i = 0; i < BEACONS_PER_VISITOR_PER_MINUTE; i++) expect((await beacon(lcp(59_999), poisoner)).status).toBe(200)
    const refused = await beacon(lcp(59_999), poisoner)
    expect(refused.body.meta).toMatchObject({ code: 429, message: "Too many vitals reports from this browser. Please try again in a minute.", error: "RateLimited" })
    const stored = await server.sql((sql) => sql<{ value: number }>`SELECT DISTINCT value FROM web_vitals WHERE route = '/poison' AND value > 5000`)
    expect(stored).toEqual([{ value: PLAUSIBLE_MAX.LCP }])
    // Nine visitors: 1000 … 4500 and the poisoner's 30,000 once. p75 of them: the seventh, 4000 ms.
    const [line] = (await server.run(Vitals.use((vitals) => vitals.report(1)))).filter((l) => l.route === "/poison")
    expect(line).toEqual({ route: "/poison", device: "desktop", samples: 9, p75: { LCP: 4000 } })
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
    let from = await pageVisit()
    for (let i = 0; i < BEACONS_PER_MINUTE + 1 && status === 200; i++) {
      if (i % BEACONS_PER_VISITOR_PER_MINUTE === 0) from = await pageVisit()
      status = (await beacon({ ...batch, route: "/flood" }, from)).status
    }
    expect(status).toBe(429)
    const refused = await beacon(batch, await pageVisit())
    expect(refused.body.meta).toMatchObject({ code: 429, message: "Too many vitals reports from this address. Please try again in a minute.", error: "RateLimited" })
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
