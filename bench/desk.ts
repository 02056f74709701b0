/**
 * The desk's deposit queue under a backlog: 10,000 pending deposits written
 * straight into the embedded database (the server stopped), then the queue
 * opened and paged to its end through the real server as support does, with
 * the player and amount filters too. Prints the answer times (localhost: the
 * server's time and a loopback round trip) beside the target, p95 ≤ 100 ms.
 */
import { PGlite } from "@electric-sql/pglite"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { deskSignIn } from "../tests/http.ts"
import { percentile } from "./bets.ts"
import { startServer, table } from "./support.ts"

const PENDING = 10_000
const TARGET_MS = 100

/** The backlog: one demo player's deposits (references distinct, as the database insists), a second apart. */
const seed = async (dataDir: string) => {
  const db = await PGlite.create(join(dataDir, "pglite"))
  try {
    await db.exec(`
      INSERT INTO deposit_requests (user_id, account_id, type, amount, txn_ref, created_at)
      SELECT (SELECT id FROM users WHERE username = 'demo'), (SELECT id FROM deposit_accounts ORDER BY id LIMIT 1), 'upi',
             (500 + i % 5000) * 100, 'BENCH' || lpad(i::text, 8, '0'), now() - make_interval(secs => ${PENDING} - i)
        FROM generate_series(1, ${PENDING}) AS i
    `)
    const [row] = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM deposit_requests WHERE status = 'pending'")).rows
    return row!.n
  } finally {
    await db.close()
  }
}

export const deskBench = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-desk-"))
  // The first start makes the database (migrations, demo data); the backlog goes in while no server holds it.
  await (await startServer({ DATA_DIR: dataDir })).stop()
  const pending = await seed(dataDir)
  const server = await startServer({ DATA_DIR: dataDir })
  try {
    const { token } = await deskSignIn(server.url, "support")
    const get = async (query: string) => {
      const started = performance.now()
      const res = await fetch(`${server.url}/api/v1/desk/deposits?${query}`, { headers: { authorization: `Bearer ${token}` } })
      const body = (await res.json()) as { data: { items: Array<unknown>; next: string | null; total: number } }
      if (res.status !== 200) throw new Error(`the queue answered ${res.status}: ${JSON.stringify(body)}`)
      return { ms: performance.now() - started, page: body.data }
    }
    // Warm up (JIT, prepared statements), then the queue opened and paged to its end.
    for (let i = 0; i < 20; i++) await get("status=pending")
    const times: Record<string, Array<number>> = { "open (first page)": [], "next pages": [], "filtered by player and amount": [] }
    let pages = 0
    for (let round = 0; round < 3; round++) {
      let answer = await get("status=pending&limit=50")
      times["open (first page)"]!.push(answer.ms)
      while (answer.page.next !== null) {
        answer = await get(`status=pending&limit=50&after=${encodeURIComponent(answer.page.next)}`)
        times["next pages"]!.push(answer.ms)
        pages++
      }
      times["filtered by player and amount"]!.push((await get("status=pending&player=demo&min=1000&max=2000")).ms)
    }
    const all = Object.values(times).flat().sort((a, b) => a - b)
    const row = (name: string, values: Array<number>) => {
      const sorted = [...values].sort((a, b) => a - b)
      return [name, String(values.length), percentile(sorted, 50).toFixed(1), percentile(sorted, 95).toFixed(1), String(TARGET_MS)]
    }
    console.log(`\n${pending.toLocaleString("en-IN")} pending deposits; the queue paged to its end 3 times, ${pages / 3 + 1} pages of 50 each time\n`)
    table([["request", "count", "p50 ms", "p95 ms", "target p95 ms"], ...Object.entries(times).map(([name, values]) => row(name, values)), row("all", all)])
    console.log(`\nRESULT desk pending=${pending} p95_ms=${percentile(all, 95).toFixed(1)}`)
  } finally {
    await server.stop()
  }
}
