/**
 * Bet placement through nginx (deploy/nginx.conf) with one and with three
 * servers on one PostgreSQL, started by the cluster test's harness: the
 * players of the bets section, flat out and paced. On a 2-core machine the
 * servers, PostgreSQL, nginx and the load generator share the same two
 * cores, so the CPU each used during the flat-out run is printed too: that
 * says where the bottleneck is.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { adminDatabaseUrl, startCluster } from "../tests/cluster/harness.ts"
import { randomUUID } from "node:crypto"
import { betRequest, logRequests, PACED_INTERVAL_MS, percentile, PLAYERS, preparePlayers, SECONDS } from "./bets.ts"
import { table } from "./support.ts"

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100

/** CPU seconds (user + system) a process has used so far. */
const cpuOf = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return 0
  }
}

const cpu = (pids: ReadonlyArray<number>) => pids.reduce((sum, pid) => sum + cpuOf(pid), 0)

/**
 * One run through nginx, as the bets section runs against one server: "flat out" (each player bets again as
 * soon as answered) or "paced" (a bet every 200 ms per player), each bet with its own Idempotency-Key.
 */
const measureBets = async (base: string, prepared: Awaited<ReturnType<typeof preparePlayers>>, mode: "flat out" | "paced") => {
  const { tokens, markets } = prepared
  const latencies: Array<number> = []
  const statuses = new Map<string, number>()
  const started = performance.now()
  const deadline = started + SECONDS * 1000
  await Promise.all(tokens.map(async (token, i) => {
    let n = i
    let next = started + (i / tokens.length) * PACED_INTERVAL_MS
    while (performance.now() < deadline) {
      if (mode === "paced") {
        const wait = next - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        next += PACED_INTERVAL_MS
      }
      const market = markets[n % markets.length]!
      const runner = market.runners[n % market.runners.length]!
      const side = n % 2 === 0 ? "back" : "lay"
      n += 7
      const t0 = performance.now()
      const res = await betRequest(`${base}/api/v1/bet-sport`, { marketId: market.marketId, selectionId: runner.selectionId, selectionType: side, odds: side === "back" ? 1.01 : 1000, stake: 100 }, token, randomUUID())
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
    placed: latencies.length,
    perSecond: latencies.length / duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    other: [...statuses].filter(([key]) => key !== "placed").map(([key, count]) => `${count}× ${key}`).join("; ") || "none"
  }
}

type LoadResult = Awaited<ReturnType<typeof measureBets>>

export const clusterBench = async () => {
  const rows: Array<Array<string | number>> = []
  for (const count of [1, 3]) {
    const cluster = await startCluster({ count, env: { LOG_REQUESTS: logRequests } })
    try {
      const prepared = await preparePlayers(cluster.url, cluster.dataDir)
      // PostgreSQL's backends serving this cluster's database (its connections stay open through the run).
      const backends = (await cluster.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).map((row) => row.pid)
      const groups = {
        servers: () => cluster.servers.flatMap((server) => (server.process()?.pid ? [server.process()!.pid!] : [])),
        postgres: () => backends,
        nginx: cluster.nginxPids,
        generator: () => [process.pid]
      }
      const before = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, cpu(pids())]))
      const flatOut = await measureBets(cluster.url, prepared, "flat out")
      const used = Object.entries(groups).map(([name, pids]) => `${name} ${((cpu(pids()) - before[name]!) / SECONDS).toFixed(2)}`).join(", ")
      const paced = await measureBets(cluster.url, prepared, "paced")
      const row = (result: LoadResult, share: string) => [count, result.mode, result.placed, result.perSecond.toFixed(0), result.p50.toFixed(1), result.p95.toFixed(1), result.p99.toFixed(1), result.other, share]
      rows.push(row(flatOut, used), row(paced, ""))
    } finally {
      await cluster.stop()
    }
  }
  table([["servers", "load", "bets placed", "bets/s", "p50 ms", "p95 ms", "p99 ms", "refused", "cores used in the flat-out run"], ...rows])
  console.log(`\n${PLAYERS} players for ${SECONDS} s each run, through nginx (least connections) to the servers; paced: a bet every ${PACED_INTERVAL_MS} ms per player`)
  console.log("cores used: CPU seconds per second of the flat-out run, by process group (2 cores in all on the reference machine)")
  console.log(`servers: LOG_REQUESTS=${logRequests}; PostgreSQL: ${new URL(adminDatabaseUrl()).host} (DATABASE_URL, else PG_URL); a fresh database per run`)
}
