/**
 * Bet placement through nginx (deploy/nginx.conf) with one and with three
 * servers on one PostgreSQL, started by the cluster test's harness: the
 * players of the bets section, flat out and paced. On a 2-core machine the
 * servers, PostgreSQL, nginx and the load generator share the same two
 * cores, so the CPU each used during the flat-out run is printed too: that
 * says where the bottleneck is.
 */
import { adminDatabaseUrl, startCluster } from "../tests/cluster/harness.ts"
import { betLoad, cpuSeconds, cpuSince, cpuSnapshot, logRequests, PACED_INTERVAL_MS, PLAYERS, preparePlayers, SECONDS, WARM_UP_BETS, warmUp } from "./bets.ts"
import { table } from "./support.ts"

const cpu = (pids: ReadonlyArray<number>) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)

type LoadResult = Awaited<ReturnType<typeof betLoad>>

export const clusterBench = async () => {
  const rows: Array<Array<string | number>> = []
  for (const count of [1, 3]) {
    const cluster = await startCluster({ count, env: { LOG_REQUESTS: logRequests } })
    try {
      const prepared = await preparePlayers(cluster.url, cluster.dataDir)
      await warmUp(cluster.url, prepared)
      // PostgreSQL's backends serving this cluster's database: the servers' pools open more under load, so they
      // are listed again after the run, and a backend opened during it counts whole.
      const backends = async () =>
        (await cluster.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).map((row) => row.pid)
      const groups = {
        servers: () => cluster.servers.flatMap((server) => (server.process()?.pid ? [server.process()!.pid!] : [])),
        nginx: cluster.nginxPids,
        generator: () => [process.pid]
      }
      const before = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, cpu(pids())]))
      const postgresBefore = cpuSnapshot(await backends())
      const flatOut = await betLoad(cluster.url, prepared, "flat out")
      const postgres = cpuSince(postgresBefore, await backends())
      const used = [
        ...Object.entries(groups).map(([name, pids]) => [name, cpu(pids()) - before[name]!] as const),
        ["postgres", postgres] as const
      ].map(([name, seconds]) => `${name} ${(seconds / SECONDS).toFixed(2)}`).join(", ")
      const paced = await betLoad(cluster.url, prepared, "paced")
      const row = (result: LoadResult, share: string) => [count, result.mode, result.placed, result.perSecond.toFixed(0), result.p50.toFixed(1), result.p95.toFixed(1), result.p99.toFixed(1), result.other, share]
      rows.push(row(flatOut, used), row(paced, ""))
    } finally {
      await cluster.stop()
    }
  }
  table([["servers", "load", "bets placed", "bets/s", "p50 ms", "p95 ms", "p99 ms", "refused", "cores used in the flat-out run"], ...rows])
  console.log(`\n${PLAYERS} players for ${SECONDS} s each run (after ${WARM_UP_BETS} bets each to warm the servers up), through nginx (least connections) to the servers; paced: a bet every ${PACED_INTERVAL_MS} ms per player`)
  console.log("cores used: CPU seconds per second of the flat-out run, by process group (2 cores in all on the reference machine)")
  console.log(`servers: LOG_REQUESTS=${logRequests}; PostgreSQL: ${new URL(adminDatabaseUrl()).host} (DATABASE_URL, else PG_URL); a fresh database per run`)
}
