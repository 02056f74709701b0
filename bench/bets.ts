/**
 * Bet placement under load: 100 players placing bets at once for 20 s
 * against the real server, on PGlite and on PostgreSQL (DATABASE_URL, or
 * BENCH_DATABASE_URL; a fresh database is created and dropped). Prints bets
 * per second and latency percentiles of the accepted bets.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { Agent, request as httpRequest } from "node:http"
import { randomUUID } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { deskSignIn, waitForCode } from "../tests/http.ts"
import { startServer, table } from "./support.ts"

/**
 * Per-request log lines cost the server about a third of its CPU at this rate; a high-volume
 * deployment logs requests at its proxy (LOG_REQUESTS=false). BENCH_LOG_REQUESTS=true measures with them.
 */
export const logRequests = process.env.BENCH_LOG_REQUESTS ?? "false"

export const PLAYERS = 100
/** Every bench player signs up from 127.0.0.1: the per-address SMS limit is raised, as the browser suite does. */
export const BENCH_LIMITS = { SMS_PER_ADDRESS_PER_HOUR: "100000" }
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

/**
 * The load itself goes over plain node:http with kept-alive sockets: the generator shares the 2 cores with what it
 * measures, so it should cost little. The free sockets are used in turn ("fifo"), not the last one freed first (Node's
 * default): that left some idle for the server's 5 s keep-alive timeout, and a request sent on one as the server
 * closed it came back as a reset (2 of 10,000 in a paced run).
 */
const agent = new Agent({ keepAlive: true, maxSockets: PLAYERS, scheduling: "fifo" })
export const betRequest = (url: string, body: unknown, token: string, key: string) =>
  new Promise<{ status: number; body: { meta: { code: number; message: string } } }>((resolve) => {
    // A connection the server dropped is counted (as status 0), not fatal to the run.
    const dropped = (error: Error) => resolve({ status: 0, body: { meta: { code: 0, message: `connection error: ${error.message}` } } })
    const payload = JSON.stringify(body)
    const req = httpRequest(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), authorization: `Bearer ${token}`, "idempotency-key": key }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) })
        } catch {
          resolve({ status: res.statusCode ?? 0, body: { meta: { code: res.statusCode ?? 0, message: `not an envelope: ${JSON.stringify(text.slice(0, 80))}` } } })
        }
      })
      res.on("error", dropped)
    })
    req.on("error", dropped)
    req.end(payload)
  })

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100

/** CPU seconds a process has used (user + system), from /proc (0 once it is gone): robust to other work on the machine, unlike wall-clock rates. */
export const cpuSeconds = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return 0
  }
}

/** CPU seconds each of `pids` has used so far. */
export const cpuSnapshot = (pids: ReadonlyArray<number>) => new Map(pids.map((pid) => [pid, cpuSeconds(pid)]))

/** CPU seconds `pids` used since `snapshot`; a process that was not in it (opened since, as a pool's backend) counts whole. */
export const cpuSince = (snapshot: ReadonlyMap<number, number>, pids: ReadonlyArray<number>) =>
  pids.reduce((sum, pid) => sum + cpuSeconds(pid) - (snapshot.get(pid) ?? 0), 0)

export const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const withAdminDb = <A>(url: string, program: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(program.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped))

/** A new, empty PostgreSQL database beside `adminUrl`'s, for one server; `drop` removes it. */
const freshDatabase = async (adminUrl: string) => {
  const name = `khel_bench_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  await withAdminDb(adminUrl, SqlClient.SqlClient.use((sql) => sql.unsafe(`CREATE DATABASE ${name}`)))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: () => withAdminDb(adminUrl, SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
  }
}

/** Signs `count` players up through `base` (codes from `dataDir`'s SMS outbox), funds them, and lets them take any price; the pre-match exchange markets to bet on. */
export const preparePlayers = async (base: string, dataDir: string, count = PLAYERS) => {
  // Staff sign in on the desk, with their second factor.
  const adminToken = (await deskSignIn(base, "admin")).token
  const tokens: Array<string> = []
  for (let i = 0; i < count; i++) {
    const mobileNo = `+9179${String(Date.now() % 1e5).padStart(5, "0")}${String(i).padStart(3, "0")}`
    const signedUp = await post(`${base}/identity/user/sign-up`, { name: `Bench Player`, mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    if (signedUp.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signedUp.body)}`)
    const verified = await post(`${base}/identity/user/verify-otp`, { mobile_no: mobileNo, otp: await waitForCode(dataDir, mobileNo, "signup") })
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

export type LoadMode = "flat out" | "paced"

type Prepared = Awaited<ReturnType<typeof preparePlayers>>

/**
 * A player's `n`th bet: markets and runners in turn, back and lay in turn (so a player's exposure stays small and
 * every bet is a real matched bet), each with its own Idempotency-Key as the site's bet slip sends one.
 */
const placeBet = (base: string, { markets }: Prepared, token: string, n: number) => {
  const market = markets[n % markets.length]!
  const runner = market.runners[n % market.runners.length]!
  const side = n % 2 === 0 ? "back" : "lay"
  return betRequest(`${base}/api/v1/bet-sport`, { marketId: market.marketId, selectionId: runner.selectionId, selectionType: side, odds: side === "back" ? 1.01 : 1000, stake: 100 }, token, randomUUID())
}

export const WARM_UP_BETS = 3

/**
 * Each player's first bets, not measured: a server just started compiles its statements' plans and its JIT
 * tiers up under the first burst, which once put the first 1 % of a cold run's bets at 1.5–4.6 s (p99) while the
 * rest took under half a second. The runs measure the server at work, not its first seconds.
 */
export const warmUp = async (base: string, prepared: Prepared) => {
  await Promise.all(prepared.tokens.map(async (token, i) => {
    for (let k = 0; k < WARM_UP_BETS; k++) await placeBet(base, prepared, token, i + 1000 + k * 7)
  }))
}

/**
 * A real server with its players prepared and warmed up, on PGlite or, given `adminUrl`, on a fresh PostgreSQL
 * database beside it; `root` runs another checkout's server. `stop` stops it and drops its database.
 */
export const betServer = async (adminUrl: string | undefined, root?: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-bets-"))
  const database = adminUrl ? await freshDatabase(adminUrl) : undefined
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database?.url ?? "", LOG_REQUESTS: logRequests, ...BENCH_LIMITS }, root)
  const stop = async () => {
    await server.stop()
    await database?.drop()
  }
  try {
    const prepared = await preparePlayers(server.url, dataDir)
    await warmUp(server.url, prepared)
    return { server, database, prepared, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * One run of `seconds` (SECONDS unless told) against `base` (one server, or nginx in front of several): "flat out" (each player bets
 * again as soon as answered) or "paced" (a bet every PACED_INTERVAL_MS per player), each bet a real matched
 * bet with its own Idempotency-Key. Latencies are of the accepted bets; `answered` counts every answer.
 */
export const betLoad = async (base: string, prepared: Prepared, mode: LoadMode, seconds = SECONDS) => {
  const { tokens } = prepared
  const latencies: Array<number> = []
  const statuses = new Map<string, number>()
  const started = performance.now()
  const deadline = started + seconds * 1000
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
      const t0 = performance.now()
      const res = await placeBet(base, prepared, token, n)
      n += 7
      const elapsed = performance.now() - t0
      const key = res.status === 200 ? "placed" : `${res.status} ${res.body.meta.message}`
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
      if (res.status === 200) latencies.push(elapsed)
    }
  }))
  const duration = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    mode,
    answered: [...statuses.values()].reduce((a, b) => a + b, 0),
    placed: latencies.length,
    perSecond: latencies.length / duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    other: [...statuses].filter(([key]) => key !== "placed").map(([key, count]) => `${count}× ${key}`).join("; ") || "none"
  }
}

/**
 * Two runs per engine on the same players: "flat out" (each player bets again
 * as soon as the answer comes: the most the server takes, latency is queueing)
 * and "paced" (each player bets every 200 ms: latency at 500 bets/s offered).
 */
const run = async (engine: "pglite" | "postgres", adminUrl?: string) => {
  const { server, database, prepared, stop } = await betServer(engine === "postgres" ? adminUrl : undefined)
  try {
    /** The database's own processes for this benchmark (PostgreSQL backends; PGlite runs inside the server). */
    const databasePids = async () =>
      database
        ? (await withAdminDb(adminUrl!, SqlClient.SqlClient.use((sql) => sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = ${database.name}`))).map((row) => row.pid)
        : []
    const load = async (mode: LoadMode) => {
      const cpuBefore = { server: cpuSeconds(server.process.pid!), database: cpuSnapshot(await databasePids()), generator: process.cpuUsage() }
      const result = await betLoad(server.url, prepared, mode)
      const generator = process.cpuUsage(cpuBefore.generator)
      const cpuMs = (seconds: number) => (result.answered ? (seconds * 1000) / result.answered : 0)
      return {
        cpu: {
          server: cpuMs(cpuSeconds(server.process.pid!) - cpuBefore.server),
          // Backends the pool opened during the run count whole.
          database: cpuMs(cpuSince(cpuBefore.database, await databasePids())),
          generator: cpuMs((generator.user + generator.system) / 1e6)
        },
        engine,
        ...result
      }
    }
    return [await load("flat out"), await load("paced")]
  } finally {
    await stop()
  }
}

/** The targets (2-core machine, load generator on the same machine). */
const TARGETS = { postgresPerSecond: 1000, postgresPacedP99: 50, pglitePerSecond: 300 }

const verdict = (ok: boolean) => (ok ? "met" : "NOT met")

export const betsBench = async () => {
  // BENCH_ENGINES=postgres (or pglite) measures one engine only.
  const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",")
  const results = engines.includes("pglite") ? [...await run("pglite")] : []
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  if (engines.includes("postgres")) {
    if (pg) results.push(...await run("postgres", pg))
    else console.log("(PostgreSQL skipped: set DATABASE_URL or BENCH_DATABASE_URL)")
  }
  const target = (r: (typeof results)[number]) =>
    r.engine === "postgres"
      ? r.mode === "flat out"
        ? `≥ ${TARGETS.postgresPerSecond} bets/s: ${verdict(r.perSecond >= TARGETS.postgresPerSecond)}`
        : `p99 ≤ ${TARGETS.postgresPacedP99} ms: ${verdict(r.p99 <= TARGETS.postgresPacedP99)}`
      : r.mode === "flat out"
        ? `≥ ${TARGETS.pglitePerSecond} bets/s: ${verdict(r.perSecond >= TARGETS.pglitePerSecond)}`
        : "-"
  const perBet = (r: (typeof results)[number]) => r.cpu.server + r.cpu.database + r.cpu.generator
  table([
    ["engine", "load", "bets placed", "bets/s", "p50 ms", "p95 ms", "p99 ms", "target", "cpu ms/bet server", "database", "generator", "2 idle cores ≈ bets/s", "refused"],
    ...results.map((r) => [
      r.engine, r.mode, r.placed, r.perSecond.toFixed(0), r.p50.toFixed(1), r.p95.toFixed(1), r.p99.toFixed(1), target(r),
      r.cpu.server.toFixed(2), r.engine === "postgres" ? r.cpu.database.toFixed(2) : "(in server)", r.cpu.generator.toFixed(2),
      (2000 / perBet(r)).toFixed(0), r.other
    ])
  ])
  console.log(`\n${PLAYERS} players for ${SECONDS} s per run, after ${WARM_UP_BETS} bets each to warm the server up; every bet is a real matched bet with its own Idempotency-Key.`)
  console.log("flat out: each player bets again as soon as answered (throughput; latency is mostly queueing: p50 ≈ players / bets per second)")
  console.log(`paced: each player bets every ${PACED_INTERVAL_MS} ms, ${(PLAYERS * 1000) / PACED_INTERVAL_MS} bets/s offered (latency at the target rate)`)
  console.log("cpu ms/bet: CPU time (user + system, /proc) the server, the database's backends and the load generator spent per answered bet;")
  console.log("  unlike bets/s it barely moves when other work shares the machine. '2 idle cores ≈' = 2000 / their sum: the rate the CPU allows.")
  console.log(`server: LOG_REQUESTS=${logRequests} (BENCH_LOG_REQUESTS=true to measure with a log line per request)`)
  agent.destroy()
}
