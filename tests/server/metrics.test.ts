import { describe, expect, it } from "vitest"
import { ServerConfig } from "../../server/config.ts"
import { recordVerification } from "../../server/ledger/verifications.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { Effect } from "effect"
import { scrape, valueOf } from "../prometheus.ts"
import { bet, catalogue, eventsOf, marketOf, priceOf } from "./betting-support.ts"
import { connectSocket, loginAs, request, useServer } from "./helpers.ts"
import { createDeposit } from "./payments-support.ts"

/**
 * The metrics (GET /metrics on METRICS_PORT, docs/operations.md): served on their own port and never on the
 * site's, moving as things happen (bets, sign-ins, deposits, sockets and price batches), the states read when
 * scraped (the odds leader, the pool, the ledger's last check).
 */
const server = useServer()

describe("where the metrics are", () => {
  it("listens on 127.0.0.1:9464 unless told otherwise", () => {
    const defaults = ServerConfig.fromEnv({})
    expect([defaults.metricsHost, defaults.metricsPort]).toEqual(["127.0.0.1", 9464])
    const set = ServerConfig.fromEnv({ METRICS_HOST: "10.0.0.5", METRICS_PORT: "9500" })
    expect([set.metricsHost, set.metricsPort]).toEqual(["10.0.0.5", 9500])
  })

  it("serves them on the metrics port only, in Prometheus' text format", async () => {
    expect(new URL(server.metricsUrl).port).not.toBe(new URL(server.url).port)
    const res = await fetch(`${server.metricsUrl}/metrics`)
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4")
    expect(await res.text()).toContain("# TYPE khel_bets_total counter")
    const site = await fetch(`${server.url}/metrics`)
    expect(await site.text()).not.toContain("khel_")
    expect((await fetch(`${server.metricsUrl}/`)).status).toBe(404)
  })
})

describe("what they count", () => {
  it("counts bets placed and refused, by reason and market type, with their latency, and the requests by route", async () => {
    const { token } = await loginAs(server, "demo")
    const event = eventsOf(await catalogue(server), "cricket", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const runner = market.runners[0]!
    const before = await scrape(server.metricsUrl)
    const count = (samples: typeof before, labels: Record<string, string>) => valueOf(samples, "khel_bets_total", labels) ?? 0

    const price = await priceOf(server, event._id, market.marketId, runner.selectionId)
    const placed = await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: price.back.price, stake: 100 })
    expect(placed.status).toBe(200)
    // A stake under the minimum: refused, and why.
    const refused = await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: price.back.price, stake: 99 })
    expect(refused.body.meta.error).toBe("StakeOutOfRange")
    const unknown = await bet(server, token, "bet-sport", { marketId: "no-such-market", selectionId: "1", selectionType: "back", odds: 2, stake: 100 })
    expect(unknown.status).toBe(404)

    const after = await scrape(server.metricsUrl)
    const placedLabels = { result: "placed", reason: "none", market_type: "exchange" }
    expect(count(after, placedLabels) - count(before, placedLabels)).toBe(1)
    const refusedLabels = { result: "refused", reason: "StakeOutOfRange", market_type: "exchange" }
    expect(count(after, refusedLabels) - count(before, refusedLabels)).toBe(1)
    expect(count(after, { result: "refused", reason: "NotFound", market_type: "unknown" })).toBe(1)
    const timed = (samples: typeof before) => valueOf(samples, "khel_bet_duration_seconds_count", { in_play: "false" }) ?? 0
    expect(timed(after) - timed(before)).toBe(3)
    const requests = (samples: typeof before, status: string) =>
      valueOf(samples, "khel_http_requests_total", { method: "POST", route: "/api/v1/bet-sport", status }) ?? 0
    expect(requests(after, "200") - requests(before, "200")).toBe(1)
    expect(requests(after, "422") - requests(before, "422")).toBe(1)
    expect(requests(after, "404") - requests(before, "404")).toBe(1)
    expect(valueOf(after, "khel_http_request_duration_seconds_count", { method: "POST", route: "/api/v1/bet-sport" })).toBeGreaterThanOrEqual(3)
    // No player, no id in any label.
    for (const sample of after) for (const value of Object.values(sample.labels)) expect(value).not.toMatch(/no-such-market|[0-9a-f]{8}-[0-9a-f]{4}-/)
  })

  it("counts sign-ins by result", async () => {
    const before = await scrape(server.metricsUrl)
    await loginAs(server, "demo")
    const wrong = await request(server.url, "/identity/user/login", { method: "POST", json: { username: "demo", password: "Wrong@1234" } })
    expect(wrong.status).not.toBe(200)
    const after = await scrape(server.metricsUrl)
    for (const result of ["ok", "refused"]) {
      expect((valueOf(after, "khel_sign_ins_total", { result }) ?? 0) - (valueOf(before, "khel_sign_ins_total", { result }) ?? 0)).toBe(1)
    }
  })

  it("reports deposits waiting, by state and the age of the oldest", async () => {
    const { token } = await loginAs(server, "demo")
    const created = await createDeposit(server, token, 500)
    expect(created.status).toBe(200)
    const samples = await scrape(server.metricsUrl)
    expect(valueOf(samples, "khel_deposits", { state: "pending" })).toBeGreaterThanOrEqual(1)
    expect(valueOf(samples, "khel_deposits", { state: "approved" })).toBeGreaterThanOrEqual(0)
    expect(valueOf(samples, "khel_deposits_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(0)
    // Moved an hour into the past, it is an hour old.
    await server.sql((sql) => sql`UPDATE deposit_requests SET created_at = now() - interval '1 hour' WHERE id = ${created.body.data._id}`)
    expect(valueOf(await scrape(server.metricsUrl), "khel_deposits_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(3600)
    expect(valueOf(samples, "khel_withdrawals", { state: "pending" })).toBeGreaterThanOrEqual(0)
  })

  it("counts sockets and the price batches sent to them, with their lag", async () => {
    const event = eventsOf(await catalogue(server), "cricket")[0]!
    const before = await scrape(server.metricsUrl)
    const socket = await connectSocket(server.url, "")
    try {
      const batch = new Promise<void>((resolve) => socket.once("odds", (_batch: unknown, ack?: () => void) => {
        ack?.()
        resolve()
      }))
      socket.emit("odds.watch", event._id)
      await batch
      const after = await scrape(server.metricsUrl)
      expect(valueOf(after, "khel_sockets_connected")).toBe(1)
      expect(valueOf(after, "khel_odds_batches_sent_total")! - valueOf(before, "khel_odds_batches_sent_total")!).toBeGreaterThanOrEqual(1)
      expect(valueOf(after, "khel_odds_batch_lag_seconds_count")).toBeGreaterThanOrEqual(1)
    } finally {
      socket.close()
    }
  })

  it("reads the odds leader, the database pool and the ledger's last check when scraped", async () => {
    const before = await scrape(server.metricsUrl)
    expect(valueOf(before, "khel_odds_leading")).toBe(1)
    expect(before.find((s) => s.name === "khel_odds_leader_since_timestamp_seconds")?.value).toBeGreaterThan(1_600_000_000)
    expect(valueOf(before, "khel_db_pool_max_connections")).toBe(server.engine === "postgres" ? 20 : 1)
    expect(valueOf(before, "khel_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0)
    expect(valueOf(before, "khel_db_pool_waiting")).toBe(0)
    expect(valueOf(before, "khel_ledger_verify_timestamp_seconds")).toBe(0)
    expect(valueOf(before, "khel_ledger_verify_ok")).toBeUndefined()

    // What `npm run admin -- verify-ledger` keeps after its check.
    await server.run(Effect.flatMap(Ledger.use((ledger) => ledger.verify), recordVerification))
    const after = await scrape(server.metricsUrl)
    expect(valueOf(after, "khel_ledger_verify_ok")).toBe(1)
    expect(valueOf(after, "khel_ledger_verify_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 600)
  })
})

describe("health", () => {
  it("answers /health while alive and /ready while the database, the migrations and the odds are", async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "alive" })
    const ready = await fetch(`${server.url}/ready`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: true, migrations: true, odds: true } })
    // The API's own health check stays as load balancers and the cluster test use it.
    expect((await request(server.url, "/api/v1/health")).body.data.status).toBe("ok")

    // A migration this code knows but the database has not applied: not ready.
    const [last] = await server.sql((sql) => sql<{ id: number; name: string }>`SELECT id, name FROM schema_migrations ORDER BY id DESC LIMIT 1`)
    await server.sql((sql) => sql`DELETE FROM schema_migrations WHERE id = ${last!.id}`)
    try {
      const notReady = await fetch(`${server.url}/ready`)
      expect(notReady.status).toBe(503)
      expect(await notReady.json()).toMatchObject({ status: "not ready", checks: { database: true, migrations: false } })
    } finally {
      await server.sql((sql) => sql`INSERT INTO schema_migrations (id, name) VALUES (${last!.id}, ${last!.name})`)
    }
    expect((await fetch(`${server.url}/ready`)).status).toBe(200)
  })
})
