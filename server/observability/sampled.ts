import { Effect, Metric, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "../config.ts"
import { applicationName, POOL_SIZE } from "../db/database.ts"
import { decodeFirst } from "../db/rows.ts"
import { lastVerification } from "../ledger/verifications.ts"
import { Simulation } from "../odds/runSimulator.ts"
import { Realtime } from "../realtime/Realtime.ts"
import * as M from "./metrics.ts"

const STATES = ["pending", "approved", "rejected"] as const

const Counts = Schema.NullOr(Schema.Record(Schema.String, Schema.Number))

/** What the database says, in one round trip: requests by state and the oldest pending one's age, the odds leadership. */
const Reading = Schema.Struct({
  deposits: Counts,
  withdrawals: Counts,
  depositAge: Schema.NullOr(Schema.Number),
  withdrawalAge: Schema.NullOr(Schema.Number),
  leader: Schema.NullOr(Schema.String),
  leaderSince: Schema.NullOr(Schema.Number)
})

/** This server's database sessions (PostgreSQL names them `khel <SERVER_ID>`), the one asking left out. */
const Pool = Schema.Struct({ inUse: Schema.Number, idle: Schema.Number, waiting: Schema.Number })

/**
 * Reads the states the metrics report (as opposed to what is counted as it happens) when Prometheus scrapes:
 * deposits and withdrawals by state and the age of the oldest waiting, the odds leader, this server's sockets and
 * database sessions, the last verify-ledger. Database-wide figures are the same on every server (alert rules take
 * their max). Costs a scrape two short queries, and nothing between scrapes.
 */
export const makeSampler = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const config = yield* ServerConfig
  const { io } = yield* Realtime
  const simulation = yield* Simulation
  const startedAt = Date.now() / 1000
  const leaderSince = M.labelled(M.oddsLeaderSince)
  let shownLeader: string | undefined

  const stateGauges = (gauge: Metric.Metric<number, unknown>, counts: Readonly<Record<string, number>> | null) => {
    const byState = M.labelled(gauge)
    return Effect.forEach(STATES, (state) => Metric.update(byState({ state }), counts?.[state] ?? 0), { discard: true })
  }

  const database = Effect.gen(function*() {
    const row = yield* sql`
      SELECT (SELECT json_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM deposit_requests GROUP BY status) s) AS deposits,
             (SELECT json_object_agg(status, n) FROM (SELECT status, count(*) AS n FROM withdrawal_requests GROUP BY status) s) AS withdrawals,
             extract(epoch FROM now() - (SELECT min(created_at) FROM deposit_requests WHERE status = 'pending'))::float8 AS deposit_age,
             extract(epoch FROM now() - (SELECT min(created_at) FROM withdrawal_requests WHERE status = 'pending'))::float8 AS withdrawal_age,
             l.holder AS leader, extract(epoch FROM l.since)::float8 AS leader_since
        FROM (SELECT) AS one
        LEFT JOIN (SELECT holder, since FROM odds_leaders ORDER BY epoch DESC LIMIT 1) AS l ON true
    `.pipe(decodeFirst(Reading))
    if (!row) return
    yield* stateGauges(M.deposits, row.deposits)
    yield* stateGauges(M.withdrawals, row.withdrawals)
    yield* Metric.update(M.depositsOldestPending, row.depositAge ?? 0)
    yield* Metric.update(M.withdrawalsOldestPending, row.withdrawalAge ?? 0)
    // One process runs its own odds (no leadership is recorded): it leads since it started.
    const [holder, since] = config.databaseUrl ? [row.leader, row.leaderSince] : [config.serverId, startedAt]
    if (shownLeader !== undefined && shownLeader !== holder) yield* Metric.remove(leaderSince({ server_id: shownLeader }))
    shownLeader = holder ?? undefined
    if (holder !== null && since !== null) yield* Metric.update(leaderSince({ server_id: holder }), since)

    const verified = yield* lastVerification
    if (verified) yield* Metric.update(M.ledgerVerifyOk, verified.ok ? 1 : 0)
    yield* Metric.update(M.ledgerVerifyTime, verified ? verified.at.getTime() / 1000 : 0)

    const pool = yield* sql`
      SELECT count(*) FILTER (WHERE state <> 'idle')::int AS in_use, count(*) FILTER (WHERE state = 'idle')::int AS idle,
             count(*) FILTER (WHERE wait_event_type = 'Lock')::int AS waiting
        FROM pg_stat_activity WHERE application_name = ${applicationName(config.serverId)} AND pid <> pg_backend_pid()
    `.pipe(decodeFirst(Pool))
    const connections = M.labelled(M.poolConnections)
    yield* Metric.update(connections({ state: "in_use" }), pool?.inUse ?? 0)
    yield* Metric.update(connections({ state: "idle" }), pool?.idle ?? 0)
    yield* Metric.update(M.poolWaiting, pool?.waiting ?? 0)
    yield* Metric.update(M.poolMax, config.databaseUrl ? POOL_SIZE : 1)
  })

  const inProcess = Effect.gen(function*() {
    yield* Metric.update(M.socketsConnected, io.engine.clientsCount)
    yield* Metric.update(M.oddsLeading, (yield* simulation.current) === undefined ? 0 : 1)
  })

  return Effect.andThen(
    inProcess,
    database.pipe(
      Effect.timeout("2 seconds"),
      Effect.catchCause((cause) => Effect.andThen(Metric.update(M.sampleErrors, 1), Effect.logWarning("metrics: reading the database failed", cause)))
    )
  )
})
