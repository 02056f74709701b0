import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { nextRealityCheck, type RealityCheckMinutes, SESSION_IDLE_MS } from "../../src/domain/protection.ts"
import { IST_OFFSET_MINUTES } from "../../src/domain/ranges.ts"
import type { ActivityMonth, ActivityStatement, RealityCheck } from "../../src/schema/protection.ts"
import { decodeFirst, decodeRows, iso, Paise } from "../db/rows.ts"

/** A player's activity is written at most this often (per player and server process). */
const WRITE_EVERY_MS = 60_000

const IST_MS = IST_OFFSET_MINUTES * 60_000

const PlaySession = Schema.Struct({
  id: Schema.String,
  startedAt: Schema.Date,
  lastActiveAt: Schema.Date,
  remindedAt: Schema.NullOr(Schema.Date)
})
export type PlaySession = typeof PlaySession.Type

const MonthSum = Schema.Struct({
  metric: Schema.Literals(["deposits", "withdrawals", "stakes", "netResult"]),
  month: Schema.String,
  total: Paise
})

/** "2026-03": the month of India's calendar that holds `date`. */
const monthKey = (date: Date) => new Date(date.getTime() + IST_MS).toISOString().slice(0, 7)

/** The first instant of an India month, `back` months before the one holding `date`. */
const monthStart = (date: Date, back = 0) => {
  const wall = new Date(date.getTime() + IST_MS)
  return new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() - back, 1) - IST_MS)
}

/**
 * Sessions of play and what they show: a session is a player's activity with
 * no gap of 30 minutes, kept as one row with its start and last activity.
 * Signed-in requests extend it, written at most once a minute per player (so
 * tracking costs one small write a minute per active player, whatever the
 * traffic). Reality checks run over the current session; the activity
 * statement sums time spent per month.
 */
export class Activity extends Context.Service<Activity, {
  /** A signed-in request from the player: extends their session, or starts one after 30 idle minutes. */
  seen(userId: string): Effect.Effect<void, SqlError.SqlError>
  /** The latest session: the current one while the player is active. */
  latest(userId: string): Effect.Effect<PlaySession | undefined, SqlError.SqlError>
  /** The player answered a reality check or chose its interval: the next one counts from now. */
  remind(userId: string): Effect.Effect<void, SqlError.SqlError>
  realityCheck(userId: string, minutes: RealityCheckMinutes): Effect.Effect<RealityCheck, SqlError.SqlError>
  /** Deposits, withdrawals, stakes, net result and time spent per month, the last 12 months (India's calendar). */
  statement(userId: string): Effect.Effect<ActivityStatement, SqlError.SqlError>
}>()("khel/Activity") {
  static readonly layer = Layer.effect(
    Activity,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const clock = yield* Clock.Clock
      const now = () => new Date(clock.currentTimeMillisUnsafe())
      const written = new Map<string, number>()

      const latest = (userId: string) =>
        sql`
          SELECT id, started_at, last_active_at, reminded_at FROM play_sessions
           WHERE user_id = ${userId} ORDER BY started_at DESC LIMIT 1
        `.pipe(decodeFirst(PlaySession))

      const touch = (userId: string, at: Date) =>
        sql.withTransaction(Effect.gen(function*() {
          // Two servers (or two requests) seeing the player at once extend one session, never open two.
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`play-session:${userId}`}))`
          const extended = yield* sql`
            UPDATE play_sessions SET last_active_at = greatest(last_active_at, ${at})
             WHERE id = (SELECT id FROM play_sessions WHERE user_id = ${userId} ORDER BY started_at DESC LIMIT 1)
               AND last_active_at > ${new Date(at.getTime() - SESSION_IDLE_MS)}
            RETURNING id
          `
          if (extended.length === 0) yield* sql`INSERT INTO play_sessions (user_id, started_at, last_active_at) VALUES (${userId}, ${at}, ${at})`
        }))

      const seen = Effect.fn("Activity.seen")(function*(userId: string) {
        const at = clock.currentTimeMillisUnsafe()
        const last = written.get(userId)
        if (last !== undefined && at >= last && at - last < WRITE_EVERY_MS) return
        // Claimed before writing, so a burst of requests writes once; a failed write is retried by the next request.
        written.set(userId, at)
        yield* touch(userId, new Date(at)).pipe(Effect.onError(() => Effect.sync(() => written.delete(userId))))
        if (written.size > 100_000) {
          for (const [id, when] of written) if (at - when > SESSION_IDLE_MS) written.delete(id)
        }
      })

      const remind = Effect.fn("Activity.remind")(function*(userId: string) {
        yield* sql`
          UPDATE play_sessions SET reminded_at = ${now()}
           WHERE id = (SELECT id FROM play_sessions WHERE user_id = ${userId} ORDER BY started_at DESC LIMIT 1)
        `
      })

      const realityCheck = Effect.fn("Activity.realityCheck")(function*(userId: string, minutes: RealityCheckMinutes) {
        const at = now()
        const session = yield* latest(userId)
        const startedAt = session?.startedAt ?? at
        const net = yield* sql`
          SELECT coalesce(sum(amount), 0)::bigint AS net FROM protection_results WHERE user_id = ${userId} AND at >= ${startedAt}
        `.pipe(decodeFirst(Schema.Struct({ net: Paise })))
        const next = nextRealityCheck(minutes, session?.remindedAt ?? startedAt)
        return {
          minutes,
          sessionStartedAt: startedAt.toISOString(),
          elapsedSeconds: Math.max(0, Math.floor((at.getTime() - startedAt.getTime()) / 1000)),
          netResult: toRupees(net?.net ?? 0n),
          nextAt: iso(next),
          due: next !== undefined && next <= at
        } satisfies RealityCheck
      })

      const statement = Effect.fn("Activity.statement")(function*(userId: string) {
        const at = now()
        const from = monthStart(at, 11)
        const month = (column: string) => sql.literal(`to_char((${column} AT TIME ZONE 'UTC') + interval '${IST_OFFSET_MINUTES} minutes', 'YYYY-MM')`)
        const sums = yield* sql`
          SELECT 'deposits' AS metric, ${month("decided_at")} AS month, sum(amount)::bigint AS total
            FROM deposit_requests WHERE user_id = ${userId} AND status = 'approved' AND decided_at >= ${from} GROUP BY 2
          UNION ALL
          SELECT 'withdrawals', ${month("decided_at")}, sum(amount)::bigint
            FROM withdrawal_requests WHERE user_id = ${userId} AND status = 'approved' AND decided_at >= ${from} GROUP BY 2
          UNION ALL
          SELECT 'stakes', month, sum(stake)::bigint FROM (
            SELECT ${month("created_at")} AS month, stake - unmatched - cancelled AS stake FROM bets
             WHERE user_id = ${userId} AND status NOT IN ('void', 'cancelled') AND created_at >= ${from}
            UNION ALL
            SELECT ${month("created_at")}, amount FROM casino_transactions
             WHERE user_id = ${userId} AND kind = 'debit' AND NOT rolled_back AND created_at >= ${from}
          ) staked GROUP BY month
          UNION ALL
          SELECT 'netResult', ${month("at")}, sum(amount)::bigint
            FROM protection_results WHERE user_id = ${userId} AND at >= ${from} GROUP BY 2
        `.pipe(decodeRows(MonthSum))
        const sessions = yield* sql`
          SELECT started_at, last_active_at FROM play_sessions WHERE user_id = ${userId} AND last_active_at >= ${from}
        `.pipe(decodeRows(Schema.Struct({ startedAt: Schema.Date, lastActiveAt: Schema.Date })))
        const months: Array<ActivityMonth> = []
        for (let back = 11; back >= 0; back--) {
          const start = monthStart(at, back)
          const end = monthStart(at, back - 1)
          const key = monthKey(start)
          const total = (metric: typeof MonthSum.Type["metric"]) =>
            toRupees(sums.find((row) => row.metric === metric && row.month === key)?.total ?? 0n)
          // A session that runs over midnight at a month's end counts in both months, each its own part.
          const seconds = sessions.reduce((sum, session) => {
            const overlap = Math.min(session.lastActiveAt.getTime(), end.getTime()) - Math.max(session.startedAt.getTime(), start.getTime())
            return overlap > 0 ? sum + overlap : sum
          }, 0) / 1000
          months.push({
            month: key,
            deposits: total("deposits"),
            withdrawals: total("withdrawals"),
            stakes: total("stakes"),
            netResult: total("netResult"),
            timeSpentSeconds: Math.floor(seconds)
          })
        }
        return { months } satisfies ActivityStatement
      })

      return Activity.of({ seen, latest, remind, realityCheck, statement })
    })
  )
}
