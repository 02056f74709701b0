import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "../envelope.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { Rupees } from "../user.ts"

/** What a day or a period counts (src/domain/reports.ts says how each is counted). */
export const Figures = Schema.Struct({
  deposits: Rupees,
  withdrawals: Rupees,
  netCash: Rupees,
  turnover: Schema.Struct({ sports: Rupees, casino: Rupees }),
  ggr: Schema.Struct({ sports: Rupees, casino: Rupees }),
  bets: Schema.Int,
  activePlayers: Schema.Int,
  signUps: Schema.Int
})
export type Figures = typeof Figures.Type

/** The Today screen: today, the last 7 and 30 days (India days), each of the 30 days for the charts, and what waits. */
export const TodayReport = Schema.Struct({
  today: Figures,
  week: Figures,
  month: Figures,
  days: Schema.Array(Schema.Struct({ day: Schema.String, ...Figures.fields })),
  pending: Schema.Struct({ deposits: Schema.Int, withdrawals: Schema.Int, approvals: Schema.Int })
})
export type TodayReport = typeof TodayReport.Type

export class DeskReportsApi extends HttpApiGroup.make("deskReports")
  .add(HttpApiEndpoint.get("today", "/today", { success: Envelope(TodayReport) }).annotate(Requires, "reports.read"))
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
