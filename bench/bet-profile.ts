/**
 * One bet, end to end: where its milliseconds go. The real server runs in this
 * process with a tracer that keeps every span (HTTP request, services, each SQL
 * statement), and a few players place bets one at a time (no queueing), so each
 * figure is the cost of one bet on an otherwise idle server. Prints the SQL
 * statements one bet runs (round trips to the database) and the time each
 * stage takes. On PGlite, or on PostgreSQL with BENCH_DATABASE_URL / DATABASE_URL.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Fiber, Layer, Logger, Option, Redacted, References, Tracer } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeServer } from "../server/app.ts"
import { ServerConfig } from "../server/config.ts"
import { BENCH_LIMITS, betRequest, percentile, preparePlayers } from "./bets.ts"
import { table } from "./support.ts"

const PLAYERS = 5
const BETS = 300

interface Recorded {
  readonly span: Tracer.NativeSpan
  end?: bigint
}

/** Keeps the spans of requests to the bet endpoint (and everything under them) while `recording` is on. */
const recorder = () => {
  const spans: Array<Recorded> = []
  let recording = false
  const tracer = Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      if (!recording) return span
      const recorded: Recorded = { span }
      spans.push(recorded)
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        recorded.end = endTime
        end(endTime, exit)
      }
      return span
    }
  })
  return { tracer, spans, start: () => (recording = true), stop: () => (recording = false) }
}

/** A statement's first words: enough to tell which one it is. */
const statementLabel = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim()
  const cte = /^WITH (\w+)/i.exec(flat)
  return (cte ? `WITH ${cte[1]} … ${/\)\s*(INSERT INTO \w+|SELECT|UPDATE \w+)[^)]*$/i.exec(flat)?.[1] ?? ""}` : flat).slice(0, 70)
}

const rootOf = (span: Tracer.AnySpan): Tracer.AnySpan => {
  let current = span
  while (current._tag === "Span" && Option.isSome(current.parent)) current = current.parent.value
  return current
}

const ms = (ns: bigint) => Number(ns) / 1e6

const profile = async (engine: "pglite" | "postgres", adminUrl?: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-profile-"))
  const dbName = `khel_bench_profile_${Date.now().toString(36)}`
  let databaseUrl = ""
  const admin = <A>(program: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
    Effect.runPromise(program.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl!), maxConnections: 1 })), Effect.scoped))
  if (engine === "postgres") {
    await admin(SqlClient.SqlClient.use((sql) => sql.unsafe(`CREATE DATABASE ${dbName}`)))
    const url = new URL(adminUrl!)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  }
  const config = ServerConfig.fromEnv({ ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_REQUESTS: "false", ...BENCH_LIMITS })
  const server = createServer()
  const rec = recorder()
  const listening = new Promise<void>((resolve) => server.once("listening", () => resolve()))
  const fiber = Effect.runFork(Layer.launch(makeServer(config, server)).pipe(
    Effect.provide(Logger.layer([])),
    Effect.provideService(References.MinimumLogLevel, "Error"),
    Effect.provideService(Tracer.Tracer, rec.tracer)
  ))
  try {
    await listening
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const { tokens, markets } = await preparePlayers(base, dataDir, PLAYERS)
    const place = (n: number) => {
      const market = markets[n % markets.length]!
      const runner = market.runners[n % market.runners.length]!
      const side = n % 2 === 0 ? "back" : "lay"
      return betRequest(`${base}/api/v1/bet-sport`, { marketId: market.marketId, selectionId: runner.selectionId, selectionType: side, odds: side === "back" ? 1.01 : 1000, stake: 100 }, tokens[n % tokens.length]!, randomUUID())
    }
    // Warm up (JIT, prepared statements, caches), then record.
    for (let n = 0; n < 100; n++) await place(n)
    const walls: Array<number> = []
    rec.start()
    for (let n = 0; n < BETS; n++) {
      const t0 = performance.now()
      const res = await place(n)
      walls.push(performance.now() - t0)
      if (res.status !== 200) throw new Error(`bet refused: ${JSON.stringify(res.body)}`)
    }
    rec.stop()

    // The bet requests' traces: every span whose root is a bet request.
    const roots = new Set(rec.spans.filter((r) => r.span.name.includes("bet-sport") || r.span.attributes.get("url.path") === "/api/v1/bet-sport").map((r) => rootOf(r.span)))
    const ofBets = rec.spans.filter((r) => r.end !== undefined && roots.has(rootOf(r.span)))
    const perBet = (total: number) => (total / BETS).toFixed(2)
    const stages = new Map<string, { count: number; total: number }>()
    for (const r of ofBets) {
      const text = r.span.attributes.get("db.query.text")
      const label = typeof text === "string" ? `sql: ${statementLabel(text)}` : r.span.name
      const stage = stages.get(label) ?? { count: 0, total: 0 }
      stage.count++
      stage.total += ms(r.end! - r.span.startTime)
      stages.set(label, stage)
    }
    const statements = [...stages].filter(([label]) => label.startsWith("sql: "))
    walls.sort((a, b) => a - b)
    console.log(`\n### ${engine}: ${BETS} bets one at a time (after 100 to warm up)\n`)
    console.log(`wall time per bet at the client: p50 ${percentile(walls, 50).toFixed(2)} ms, p95 ${percentile(walls, 95).toFixed(2)} ms`)
    console.log(`SQL statements per bet: ${perBet(statements.reduce((sum, [, s]) => sum + s.count, 0))}\n`)
    table([
      ["span (SQL statements by their first words)", "per bet", "ms each (mean)", "ms per bet"],
      ...[...stages].sort(([, a], [, b]) => b.total - a.total).map(([label, s]) => [label, perBet(s.count), (s.total / s.count).toFixed(3), perBet(s.total)])
    ])
  } finally {
    await Effect.runPromise(Fiber.interrupt(fiber))
    if (engine === "postgres") await admin(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)))
  }
}

export const betProfile = async () => {
  const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",")
  if (engines.includes("pglite")) await profile("pglite")
  const pg = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  if (engines.includes("postgres")) {
    if (pg) await profile("postgres", pg)
    else console.log("(PostgreSQL skipped: set DATABASE_URL or BENCH_DATABASE_URL)")
  }
  console.log("\nSpans nest (the request holds the handler, which holds the transaction, which holds its statements): the rows overlap.")
}
