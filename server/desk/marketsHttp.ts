import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { MarketAction } from "../../src/schema/desk/markets.ts"
import { ok, refuse } from "../../src/schema/envelope.ts"
import { toRupees } from "../../src/domain/money.ts"
import { CurrentStaff } from "../../src/schema/middleware.ts"
import { sqlDefects } from "../edge/defects.ts"
import { idempotent } from "../edge/guards.ts"
import { type Decision, Markets } from "./Markets.ts"
import { staffActorOf } from "./Staff.ts"
import { Reports } from "./Reports.ts"
import { Thresholds } from "./Thresholds.ts"

const actionMessage = (action: MarketAction) =>
  action.approval === null
    ? action.settlement?.outcome === "void" ? "Market voided" : "Market settled"
    : action.approval.status === "pending"
    ? "Waiting for a second approver: the market's liability is above the threshold"
    : action.approval.status === "approved"
    ? action.settlement?.outcome === "void" ? "Approved: market voided" : "Approved: market settled"
    : action.approval.status === "cancelled" ? "Request withdrawn" : "Request declined"

/** Markets and risk (src/schema/desk/markets.ts): reads, the feed's status and prices, settlement with four eyes; writes idempotent. */
export const DeskMarketsHandlers = HttpApiBuilder.group(Api, "deskMarkets", Effect.fn(function*(handlers) {
  const markets = yield* Markets
  const thresholds = yield* Thresholds
  const decide = (request: Parameters<typeof idempotent>[0], id: string, body: unknown, decision: Decision) =>
    Effect.flatMap(CurrentStaff, (me) =>
      Effect.map(idempotent(request, me.id, { id, body }, MarketAction, markets.decide(staffActorOf(me), id, decision, "propose")), (action) => ok(action, actionMessage(action)))
    )
  return handlers.handleAll(sqlDefects(handlers, {
    risk: () => Effect.flatMap(CurrentStaff, (me) => Effect.map(markets.summary(me.id), (summary) => ok(summary))),
    markets: ({ query }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(markets.list(query, me.id), (page) => ok(page))),
    market: ({ params }) => Effect.flatMap(CurrentStaff, (me) => Effect.map(markets.market(params.id, me.id), (risk) => ok(risk))),
    status: ({ params, payload }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(markets.setStatus(staffActorOf(me), params.id, payload.status), (market) => ok(market, payload.status === "OPEN" ? "Market resumed" : "Market suspended"))
      ),
    price: ({ params, payload }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(markets.setPrice(staffActorOf(me), params.id, payload), (market) => ok(market, "Price updated"))),
    settle: ({ params, payload, request }) => decide(request, params.id, payload, { result: payload.result }),
    void: ({ params, payload, request }) =>
      payload.reason.trim() === "" ? Effect.fail(refuse("InvalidInput", "Give the reason the market is voided.")) : decide(request, params.id, payload, { reason: payload.reason.trim() }),
    approve: ({ params, payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, { id: params.id, payload }, MarketAction, markets.approve(staffActorOf(me), params.id, payload.remark)), (action) => ok(action, actionMessage(action)))
      ),
    decline: ({ params, payload, request }) =>
      Effect.flatMap(CurrentStaff, (me) =>
        Effect.map(idempotent(request, me.id, { id: params.id, payload }, MarketAction, markets.decline(staffActorOf(me), params.id, payload.remark)), (action) => ok(action, actionMessage(action)))
      ),
    thresholds: () => Effect.map(thresholds.current, (t) => ok({ adjustment: toRupees(t.adjustmentPaise), liability: toRupees(t.liabilityPaise) })),
    setThresholds: ({ payload }) =>
      Effect.flatMap(CurrentStaff, (me) => Effect.map(thresholds.set(staffActorOf(me), payload), (t) => ok(t, "Thresholds saved")))
  }))
}))

/** The Today screen (reports.read). */
export const DeskReportsHandlers = HttpApiBuilder.group(Api, "deskReports", Effect.fn(function*(handlers) {
  const reports = yield* Reports
  return handlers.handleAll(sqlDefects(handlers, { today: () => Effect.map(reports.today, (report) => ok(report)) }))
}))
