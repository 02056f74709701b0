import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { parseInstant } from "../../src/domain/ranges.ts"
import { dailyFigures, type DayMetric, type Figures, figuresOf, lastDays, sumOver } from "../../src/domain/reports.ts"
import type { Figures as FiguresView, TodayReport } from "../../src/schema/desk/reports.ts"
import { Roles } from "../../src/schema/user.ts"
import { decodeRows } from "../db/rows.ts"

const METRICS = ["deposits", "withdrawals", "sportsTurnover", "casinoTurnover", "sportsGgr", "casinoGgr", "bets", "signUps", "activePlayers"] as const satisfies ReadonlyArray<DayMetric>

const DayRow = Schema.Struct({ day: Schema.String, metric: Schema.Literals(METRICS), value: Schema.BigInt })
const Actives = Schema.Struct({ today: Schema.Int, week: Schema.Int, month: Schema.Int })
const Pending = Schema.Struct({ deposits: Schema.Int, withdrawals: Schema.Int, approvals: Schema.Int })

/** An instant's India day, in SQL. */
const dayOf = (column: string) => `to_char((${column} AT TIME ZONE 'UTC') + interval '330 minutes', 'YYYY-MM-DD')`

const inRupees = (figures: Figures): FiguresView => ({
  ...figures,
  deposits: toRupees(figures.deposits),
  withdrawals: toRupees(figures.withdrawals),
  netCash: toRupees(figures.netCash),
  turnover: { sports: toRupees(figures.turnover.sports), casino: toRupees(figures.turnover.casino) },
  ggr: { sports: toRupees(figures.ggr.sports), casino: toRupees(figures.ggr.casino) }
})

/**
 * The Today screen's figures (reports.read): one grouped read of the last 30
 * India days (by the server's clock), summed into today, 7 and 30 days; active
 * players counted distinct over each period.
 */
export class Reports extends Context.Service<Reports, {
  readonly today: Effect.Effect<TodayReport, SqlError.SqlError>
}>()("khel/Reports") {
  static readonly layer = Layer.effect(
    Reports,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const day = (column: string) => sql.literal(dayOf(column))

      const today = Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const month = lastDays(30, now)
        const week = month.slice(-7)
        const [from, weekFrom, todayFrom] = [month[0]!, week[0]!, month[29]!].map((d) => parseInstant(d)!)
        const rows = yield* sql`
          SELECT ${day("decided_at")} AS day, 'deposits' AS metric, sum(amount)::bigint AS value
            FROM deposit_requests WHERE status = 'approved' AND decided_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("decided_at")}, 'withdrawals', sum(amount)::bigint
            FROM withdrawal_requests WHERE status = 'approved' AND decided_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("created_at")}, 'sportsTurnover', sum(stake - unmatched - cancelled)::bigint FROM bets WHERE created_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("created_at")}, 'bets', count(*)::bigint FROM bets WHERE created_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("settled_at")}, 'sportsGgr', (0 - sum(profit_loss))::bigint
            FROM bets WHERE status IN ('won', 'lost') AND settled_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("created_at")}, 'casinoTurnover', sum(stake)::bigint FROM casino_rounds WHERE created_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("settled_at")}, 'casinoGgr', sum(stake - win - refunded)::bigint
            FROM casino_rounds WHERE status <> 'open' AND settled_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT ${day("created_at")}, 'signUps', count(*)::bigint FROM users WHERE role = ${Roles.PLAYER} AND created_at >= ${from} GROUP BY 1
          UNION ALL
          SELECT day, 'activePlayers', count(DISTINCT user_id)::bigint FROM (
            SELECT ${day("created_at")} AS day, user_id FROM bets WHERE created_at >= ${from}
            UNION ALL
            SELECT ${day("created_at")}, user_id FROM casino_rounds WHERE created_at >= ${from}
          ) played GROUP BY day
        `.pipe(decodeRows(DayRow))
        const [actives] = yield* sql`
          SELECT count(DISTINCT user_id) FILTER (WHERE at >= ${todayFrom})::int AS today,
                 count(DISTINCT user_id) FILTER (WHERE at >= ${weekFrom})::int AS week,
                 count(DISTINCT user_id)::int AS month
            FROM (SELECT user_id, created_at AS at FROM bets WHERE created_at >= ${from}
                  UNION ALL SELECT user_id, created_at FROM casino_rounds WHERE created_at >= ${from}) played
        `.pipe(decodeRows(Actives))
        const [pending] = yield* sql`
          SELECT (SELECT count(*) FROM deposit_requests WHERE status = 'pending')::int AS deposits,
                 (SELECT count(*) FROM withdrawal_requests WHERE status = 'pending')::int AS withdrawals,
                 (SELECT count(*) FROM desk_approvals WHERE status = 'pending')::int AS approvals
        `.pipe(decodeRows(Pending))
        const values = rows.map((row) => ({ day: row.day, metric: row.metric, value: Number(row.value) }))
        const period = (days: ReadonlyArray<string>, active: number) => inRupees(figuresOf({ ...sumOver(values, days), activePlayers: active }))
        return {
          today: period(month.slice(-1), actives?.today ?? 0),
          week: period(week, actives?.week ?? 0),
          month: period(month, actives?.month ?? 0),
          days: dailyFigures(values, month).map(({ day, ...figures }) => ({ day, ...inRupees(figures) })),
          pending: pending ?? { deposits: 0, withdrawals: 0, approvals: 0 }
        } satisfies TodayReport
      }).pipe(Effect.withSpan("Reports.today"))

      return Reports.of({ today })
    })
  )
}
