/**
 * Bet placement under load: 100 players placing bets at once for 20 s
 * against the real server, on PGlite and on PostgreSQL (DATABASE_URL, or
 * BENCH_DATABASE_URL; a fresh database is created and dropped). Prints bets
 * per second and latency percentiles of the accepted bets.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { Agent, request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startServer, table } from "./support.ts"

/**
 * Per-request log lines cost the server about a third of its CPU at this rate; a high-volume
 * deployment logs requests at its proxy (LOG_REQUESTS=false). BENCH_LOG_REQUESTS=true measures with them.
 */
export const logRequests = process.env.BENCH_LOG_REQUESTS ?? "false"

export const PLAYERS = 100
export const SECONDS = 20
/** The paced run: each player bets every 200 ms, 500 bets/s in all (the target rate). */
export const PACED_INTERVAL_MS = 200

const post = async (url: string, body: unknown, token?: string, method = "POST") => {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })
  return { status: res.status, body: (await res.json()) as { meta: { code: number; message: string; token?: string }; data: any } }
}

const otpOf = (dataDir: string, mobileNo: string) => {
  const path = join(dataDir, "sms-outbox.jsonl")
  if (!existsSync(path)) return undefined
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { mobile_no: string; otp: string })
    .filter((entry) => entry.mobile_no === mobileNo).at(-1)?.otp
}

/** The load itself goes over plain node:http with kept-alive sockets: the generator shares the 2 cores with what it measures, so it should cost little. */
const betRequest = (agent: Agent, url: string, body: unknown, token: string) =>
  new Promise<{ status: number; body: { meta: { code: number; message: string } } }>((resolve, reject) => {
    const payload = JSON.stringify(body)
    const req = httpRequest(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), authorization: `Bearer ${token}` }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(payload)
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const withAdminDb = <A>(url: string, program: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(program.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped))

/** Signs `count` players up through `base` (codes from `dataDir`'s SMS outbox), funds them, and lets them take any price. */
export const preparePlayers = async (base: string, dataDir: string, count = PLAYERS) => {
  const admin = await post(`${base}/identity/user/login`, { username: "admin", password: "Admin@1234" })
  const adminToken = admin.body.meta.token!
  const tokens: Array<string> = []
  for (let i = 0; i < count; i++) {
    const mobileNo = `+9179${String(Date.now() % 1e5).padStart(5, "0")}${String(i).padStart(3, "0")}`
    await post(`${base}/identity/user/sign-up`, { name: `Bench Player`, mobile_no: mobileNo, password: "Secret@123", confirmPassword: "Secret@123" })
    const verified = await post(`${base}/identity/user/verify-otp`, { mobile_no: mobileNo, otp: otpOf(dataDir, mobileNo) })
    if (verified.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(verified.body)}`)
    const token = verified.body.meta.token!
    await post(`${base}/api/v1/admin/credit`, { user: verified.body.data.username, amount: 1_000_000 }, adminToken)
    // Prices move all the time: these players take whatever price is on offer.
    await post(`${base}/api/v1/setting`, { oddsChange: "any" }, token, "PUT")
    tokens.push(token)
  }
  const sports = (await (await fetch(`${base}/api/v1/get-sports-data`)).json()).data as Array<{ slugName: string; leagues: Array<{ events: Array<{ inPlay: boolean; markets: Array<{ marketId: string; marketType: string; runners: Array<{ selectionId: string }> }> }> }> }>
  // Pre-match exchange markets of the team sports (in play adds the bet delay; racing takes bet-racing).
  const markets = sports.filter((s) => !["horse-racing", "greyhound-racing"].includes(s.slugName))
    .flatMap((s) => s.leagues.flatMap((l) => l.events.filter((e) => !e.inPlay).flatMap((e) => e.markets.filter((m) => m.marketType === "EXCHANGE"))))
  return { tokens, markets }
}

export interface LoadResult {
  readonly mode: "flat out" | "paced"
  readonly placed: number
  readonly perSecond: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly other: string
}

/**
 * "flat out" (each player bets again as soon as the answer comes: the most
 * the server takes, latency is queueing) or "paced" (each player bets every
 * 200 ms: latency at 500 bets/s offered), for 20 s.
 */
export const measureBets = async (base: string, prepared: Awaited<ReturnType<typeof preparePlayers>>, mode: "flat out" | "paced"): Promise<LoadResult> => {
  const { tokens, markets } = prepared
  const agent = new Agent({ keepAlive: true, maxSockets: tokens.length })
  const latencies: Array<number> = []
  const statuses = new Map<string, number>()
  const started = performance.now()
  const deadline = started + SECONDS * 1000
  await Promise.all(tokens.map(async (token, i) => {
    let n = i
    // Players start spread over one interval, so the paced load is even.
    let next = started + (i / tokens.length) * PACED_INTERVAL_MS
    while (performance.now() < deadline) {
      if (mode === "paced") {
        const wait = next - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        next += PACED_INTERVAL_MS
      }
      const market = markets[n % markets.length]!
      const runner = market.runners[n % market.runners.length]!
      // Back and lay in turn, so a player's exposure stays small and every bet is a real matched bet.
      const side = n % 2 === 0 ? "back" : "lay"
      n += 7
      const t0 = performance.now()
      const res = await betRequest(agent, `${base}/api/v1/bet-sport`, { marketId: market.marketId, selectionId: runner.selectionId, selectionType: side, odds: side === "back" ? 1.01 : 1000, stake: 100 }, token)
      const elapsed = performance.now() - t0
      const key = res.status === 200 ? "placed" : `${res.status} ${res.body.meta.message}`
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
      if (res.status === 200) latencies.push(elapsed)
    }
  }))
  const duration = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    mode,
    placed: latencies.length,
    perSecond: latencies.length / duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    other: [...statuses].filter(([key]) => key !== "placed").map(([key, count]) => `${count}× ${key}`).join("; ") || "none"
  }
}

/** Two runs per engine on the same players: flat out, then paced. */
const run = async (engine: "pglite" | "postgres", adminUrl?: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-bets-"))
  let databaseUrl = ""
  const dbName = `khel_bench_${Date.now().toString(36)}`
  if (engine === "postgres") {
    await withAdminDb(adminUrl!, SqlClient.SqlClient.use((sql) => sql.unsafe(`CREATE DATABASE ${dbName}`)))
    const url = new URL(adminUrl!)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  }
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_REQUESTS: logRequests })
  try {
    const prepared = await preparePlayers(server.url, dataDir)
    return [{ engine, ...await measureBets(server.url, prepared, "flat out") }, { engine, ...await measureBets(server.url, prepared, "paced") }]
  } finally {
    await server.stop()
    if (engine === "postgres") await withAdminDb(adminUrl!, SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)))
  }
}

export const betsBench = async () => {
  const results = [...await run("pglite")]
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  if (pg) results.push(...await run("postgres", pg))
  else console.log("(PostgreSQL skipped: set DATABASE_URL or BENCH_DATABASE_URL)")
  table([
    ["engine", "load", "players", "seconds", "bets placed", "bets/s", "p50 ms", "p95 ms", "p99 ms", "refused"],
    ...results.map((r) => [r.engine, r.mode, PLAYERS, SECONDS, r.placed, r.perSecond.toFixed(0), r.p50.toFixed(1), r.p95.toFixed(1), r.p99.toFixed(1), r.other])
  ])
  console.log("\nflat out: each player bets again as soon as answered (throughput; latency is mostly queueing: p50 ≈ 100 players / bets per second)")
  console.log(`paced: each player bets every ${PACED_INTERVAL_MS} ms, ${(PLAYERS * 1000) / PACED_INTERVAL_MS} bets/s offered (latency at the target rate)`)
  console.log("targets on PostgreSQL: at least 500 bets/s, p99 at most 100 ms (2-core machine, load generator on the same machine)")
  console.log(`server: LOG_REQUESTS=${logRequests} (BENCH_LOG_REQUESTS=true to measure with a log line per request)`)
}
