import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { BookStatus, Settlement } from "../betting.ts"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { MarketType } from "../sports.ts"
import { Rupees } from "../user.ts"
import { DecisionFields, Id, Instant, Page, PageQuery, Text } from "./common.ts"
import { PlayerRef } from "./queues.ts"

/**
 * A settlement or void waiting for a second staff member (four eyes): asked
 * for when the market's liability was above the threshold; a different
 * ADMIN or DIRECTOR approves it (then it runs) or declines it.
 */
export const MarketApproval = Schema.Struct({
  _id: Schema.String,
  kind: Schema.Literals(["settle", "void"]),
  marketId: Schema.String,
  /** The winning selection id or the fancy result (settle); null for a void. */
  result: Schema.NullOr(Schema.String),
  /** The void's reason; null for a settlement. */
  reason: Schema.NullOr(Schema.String),
  /** The market's liability when it was asked for. */
  liability: Rupees,
  ...DecisionFields
})
export type MarketApproval = typeof MarketApproval.Type

/** A market still to settle, as the risk list shows it. */
export const RiskMarket = Schema.Struct({
  marketId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  /** SETTLED and VOID markets are not listed. */
  status: Schema.Literals(["OPEN", "SUSPENDED", "CLOSED"]),
  /** The live book's status (the feed's), or null when the feed has no book of it. */
  bookStatus: Schema.NullOr(BookStatus),
  event: Schema.Struct({ id: Schema.String, name: Schema.String, startsAt: Instant, status: Schema.String, sport: Schema.String }),
  openBets: Schema.Int,
  players: Schema.Int,
  /** What the house loses on the market's worst outcome (0 when none loses). */
  liability: Rupees,
  approval: Schema.NullOr(MarketApproval)
})
export type RiskMarket = typeof RiskMarket.Type

/** Which markets: any text of the event or market, only those with open bets (default) or all. */
export const RiskQuery = Schema.Struct({
  search: Schema.optionalKey(Text(100)),
  bets: Schema.optionalKey(Schema.Literals(["with", "all"])),
  ...PageQuery
})
export type RiskQuery = typeof RiskQuery.Type

/** A player with much at stake: what their open markets hold of theirs. */
export const ExposedPlayer = Schema.Struct({ player: PlayerRef, exposure: Rupees, markets: Schema.Int })
export type ExposedPlayer = typeof ExposedPlayer.Type

/** The house's position over every market still to settle. */
export const RiskSummary = Schema.Struct({
  /** The sum of the markets' liabilities (markets of one event on the same outcomes are counted apart: the worst case). */
  liability: Rupees,
  markets: Schema.Int,
  openBets: Schema.Int,
  /** The players with the biggest exposure, at most 10. */
  topPlayers: Schema.Array(ExposedPlayer),
  /** Settlements and voids waiting for a second approver. */
  approvals: Schema.Array(MarketApproval),
  /** Above this liability a settlement or void needs a second approver. */
  threshold: Rupees
})
export type RiskSummary = typeof RiskSummary.Type

/** One market's book: the house's result on each runner (or fancy result band), its players, the live prices. */
export const MarketRisk = Schema.Struct({
  market: RiskMarket,
  runners: Schema.Array(Schema.Struct({
    selectionId: Schema.String,
    name: Schema.String,
    house: Rupees,
    back: Schema.NullOr(Schema.Finite),
    lay: Schema.NullOr(Schema.Finite)
  })),
  /** A fancy: the house's result for each band of results (`to` null: and above). */
  bands: Schema.Array(Schema.Struct({ from: Schema.Int, to: Schema.NullOr(Schema.Int), house: Rupees })),
  /** The live fancy line (Yes, No), or null. */
  line: Schema.NullOr(Schema.Struct({ yes: Schema.NullOr(Schema.Finite), no: Schema.NullOr(Schema.Finite) })),
  players: Schema.Array(Schema.Struct({ player: PlayerRef, exposure: Rupees, bets: Schema.Int })),
  threshold: Rupees
})
export type MarketRisk = typeof MarketRisk.Type

export const MarketStatusPayload = Schema.Struct({ status: Schema.Literals(["OPEN", "SUSPENDED"]) })

const Level = Schema.Struct({
  price: Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1000)),
  size: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1_000_000_000))
})

/** A runner's price by hand (the same rules as the feed's manual prices). */
export const MarketPriceChange = Schema.Struct({ selectionId: Text(64), back: Schema.optionalKey(Level), lay: Schema.optionalKey(Level) })

/** The winning selection id, or a fancy's result in runs. */
export const SettlePayload = Schema.Struct({ result: Text(64) })
export const VoidPayload = Schema.Struct({ reason: Text(200) })
export const ApprovalDecision = Schema.Struct({ remark: Schema.optionalKey(Text(200)) })

/** What a settle or void did: settled at once, or waiting for a second approver (above the threshold). */
export const MarketAction = Schema.Struct({ settlement: Schema.NullOr(Settlement), approval: Schema.NullOr(MarketApproval) })
export type MarketAction = typeof MarketAction.Type

export const Thresholds = Schema.Struct({
  /** A manual adjustment above this needs a second approver. */
  adjustment: Rupees.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(100_000_000)),
  /** Settling or voiding a market whose liability is above this needs a second approver. */
  liability: Rupees.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(100_000_000))
})
export type Thresholds = typeof Thresholds.Type

const SETTLE_REASONS = ["InvalidInput", "NotFound", "Conflict", "Refused", "AlreadyDecided"] as const
const APPROVAL_REASONS = ["InvalidInput", "NotFound", "Conflict", "Refused", "AlreadyDecided", "OwnProposal"] as const

/** Markets and risk: the house's book, liability, the most exposed players; suspend, price, settle and void with four eyes. */
export class DeskMarketsApi extends HttpApiGroup.make("deskMarkets")
  .add(
    HttpApiEndpoint.get("risk", "/risk", { success: Envelope(RiskSummary) }).annotate(Requires, "markets.read"),
    HttpApiEndpoint.get("markets", "/markets", { query: RiskQuery, success: Envelope(Page(RiskMarket)) }).annotate(Requires, "markets.read"),
    HttpApiEndpoint.get("market", "/markets/:id", { params: Id, success: Envelope(MarketRisk) }).annotate(Requires, "markets.read").annotate(Reasons, ["NotFound"]),
    HttpApiEndpoint.post("status", "/markets/:id/status", { params: Id, payload: MarketStatusPayload, success: Envelope(RiskMarket) })
      .annotate(Requires, "markets.manage").annotate(Reasons, ["InvalidInput", "NotFound", "Refused", "Unavailable"]),
    HttpApiEndpoint.post("price", "/markets/:id/price", { params: Id, payload: MarketPriceChange, success: Envelope(RiskMarket) })
      .annotate(Requires, "markets.manage").annotate(Reasons, ["InvalidInput", "NotFound", "Refused", "PricesContradict", "Unavailable"]),
    HttpApiEndpoint.post("settle", "/markets/:id/settle", { params: Id, payload: SettlePayload, success: Envelope(MarketAction) })
      .annotate(Requires, "markets.settle").annotate(Reasons, SETTLE_REASONS),
    HttpApiEndpoint.post("void", "/markets/:id/void", { params: Id, payload: VoidPayload, success: Envelope(MarketAction) })
      .annotate(Requires, "markets.settle").annotate(Reasons, SETTLE_REASONS),
    HttpApiEndpoint.post("approve", "/market-approvals/:id/approve", { params: Id, payload: ApprovalDecision, success: Envelope(MarketAction) })
      .annotate(Requires, "markets.settle").annotate(Reasons, APPROVAL_REASONS),
    HttpApiEndpoint.post("decline", "/market-approvals/:id/decline", { params: Id, payload: ApprovalDecision, success: Envelope(MarketAction) })
      .annotate(Requires, "markets.settle").annotate(Reasons, APPROVAL_REASONS),
    HttpApiEndpoint.get("thresholds", "/thresholds", { success: Envelope(Thresholds) }).annotate(Requires, "staff"),
    HttpApiEndpoint.put("setThresholds", "/thresholds", { payload: Thresholds, success: Envelope(Thresholds) }).annotate(Requires, "thresholds.manage")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
