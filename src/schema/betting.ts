import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Bet, Persistence, SelectionType } from "./bets.ts"
import { Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication, Requires, StaffAuthentication } from "./middleware.ts"
import { MarketType, RacingSport, sportsDataAuthenticate } from "./sports.ts"
import { Rupees } from "./user.ts"

/** One price on offer: the price and the amount (rupees) available at it. */
export const PriceLevel = Schema.Struct({ price: Schema.Finite, size: Schema.Finite })
export type PriceLevel = typeof PriceLevel.Type

/**
 * A runner's prices, best first. Exchange: decimal odds; bookmaker: rates
 * per 100; fancy: `back` is the "Yes" line with its size, `lay` the "No".
 */
export const RunnerPrices = Schema.Struct({
  selectionId: Schema.String,
  back: Schema.Array(PriceLevel),
  lay: Schema.Array(PriceLevel)
})
export type RunnerPrices = typeof RunnerPrices.Type

export const BookStatus = Schema.Literals(["OPEN", "SUSPENDED", "CLOSED"])
export type BookStatus = typeof BookStatus.Type

/** The live prices of one market (keyed by the feed's `marketId`). */
export const MarketBook = Schema.Struct({
  marketId: Schema.String,
  eventId: Schema.String,
  marketType: MarketType,
  status: BookStatus,
  inPlay: Schema.Boolean,
  runners: Schema.Array(RunnerPrices),
  /** Increases with every change, so a client can drop a stale update. */
  version: Schema.Int
})
export type MarketBook = typeof MarketBook.Type

/** The simulated (or fed) live score of an event. */
export const Score = Schema.Struct({
  eventId: Schema.String,
  sportCode: Schema.String,
  /** "MI 84/2 (9.3)", "2 - 1", "6-4 3-2". */
  home: Schema.String,
  away: Schema.String,
  summary: Schema.String,
  /** Minute, over or set, as shown. */
  clock: Schema.String,
  status: Schema.Literals(["scheduled", "live", "finished"])
})
export type Score = typeof Score.Type

/** The socket's `odds` message: the prices and scores that changed since the last batch, conflated (the latest of each). */
export const OddsBatch = Schema.Struct({ markets: Schema.Array(MarketBook), scores: Schema.Array(Score) })
export type OddsBatch = typeof OddsBatch.Type

/** The socket's `odds.snapshot` message, and GET /event-odds: an event's books and score. */
export const EventOdds = Schema.Struct({
  eventId: Schema.String,
  markets: Schema.Array(MarketBook),
  score: Schema.NullOr(Score)
})
export type EventOdds = typeof EventOdds.Type

/** Stakes are rupees with at most two decimals. */
const Stake = Schema.Finite.check(Schema.isGreaterThan(0))

export const PlaceBetPayload = Schema.Struct({
  /** The market's feed id (`Market.marketId`). */
  marketId: Schema.String.check(Schema.isMaxLength(64)),
  selectionId: Schema.String.check(Schema.isMaxLength(64)),
  selectionType: SelectionType,
  /** The price the player saw: decimal odds, bookmaker rate, or fancy line. */
  odds: Schema.Finite,
  stake: Stake,
  /** Fancy: the size the player saw. */
  size: Schema.optionalKey(Schema.Finite),
  /**
   * Take the best available price: an exchange bet is matched at whatever the ladder offers (what it cannot cover
   * waits at `odds`); a bookmaker or fancy bet takes the rate on offer even when it moved against the player.
   * Without it, a bet is matched only at `odds` or better, and a changed rate is refused.
   */
  bestPrice: Schema.optionalKey(Schema.Boolean),
  /** Exchange: what the unmatched part does when the event goes in play (by default cancelled before, kept in play). */
  persistence: Schema.optionalKey(Persistence)
})
export type PlaceBetPayload = typeof PlaceBetPayload.Type

/** Cancels what waits of an exchange bet: `stake` rupees of it, or all of it. */
export const CancelBetPayload = Schema.Struct({
  betId: Schema.String.check(Schema.isMaxLength(64)),
  stake: Schema.optionalKey(Stake)
})
export type CancelBetPayload = typeof CancelBetPayload.Type

/** Moves what waits of an exchange bet to another price (matched at once as far as the ladder allows). */
export const EditBetPayload = Schema.Struct({
  betId: Schema.String.check(Schema.isMaxLength(64)),
  odds: Schema.Finite
})
export type EditBetPayload = typeof EditBetPayload.Type

export const PlacedBet = Schema.Struct({
  bet: Bet,
  /** What is now held on this market for the player (rupees). */
  marketExposure: Rupees
})
export type PlacedBet = typeof PlacedBet.Type

/** The player's remembered default for "take the best available price": not ticked (`better`) or ticked (`any`). */
export const OddsChangeRule = Schema.Literals(["better", "any"])
export type OddsChangeRule = typeof OddsChangeRule.Type

/** The limits that apply to an event for the signed-in player, and their betting settings. Rupees and seconds. */
export const BetSetting = Schema.Struct({
  minStake: Rupees,
  maxStake: Rupees,
  /** Seconds an in-play bet waits before it is decided. */
  betDelay: Schema.Int,
  oddsChange: OddsChangeRule,
  /** One-click betting: the stake a click on a price places at once, or null (off: the bet slip opens). */
  oneClick: Schema.NullOr(Rupees)
})
export type BetSetting = typeof BetSetting.Type

/** The player's betting settings; what is left out stays as it was. */
export const BetPreferencesPayload = Schema.Struct({
  oddsChange: Schema.optionalKey(OddsChangeRule),
  oneClick: Schema.optionalKey(Schema.NullOr(Stake))
})
export type BetPreferencesPayload = typeof BetPreferencesPayload.Type

/** A fancy line as the event page lists it. */
export const Fancy = Schema.Struct({
  _id: Schema.String,
  marketId: Schema.String,
  name: Schema.String,
  status: BookStatus,
  selectionId: Schema.String,
  yes: Schema.NullOr(PriceLevel),
  no: Schema.NullOr(PriceLevel)
})
export type Fancy = typeof Fancy.Type

export const SettleMarketPayload = Schema.Struct({
  marketId: Schema.String.check(Schema.isMaxLength(64)),
  /** The winning selection id, or for a fancy market the result in runs. */
  result: Schema.String.check(Schema.isMaxLength(64))
})
export type SettleMarketPayload = typeof SettleMarketPayload.Type

export const VoidMarketPayload = Schema.Struct({
  marketId: Schema.String.check(Schema.isMaxLength(64)),
  reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
})
export type VoidMarketPayload = typeof VoidMarketPayload.Type

export const Settlement = Schema.Struct({
  marketId: Schema.String,
  outcome: Schema.Literals(["result", "void"]),
  result: Schema.NullOr(Schema.String),
  bets: Schema.Int,
  players: Schema.Int,
  /** Net paid to players (negative: the house won), rupees. */
  playersNet: Rupees
})
export type Settlement = typeof Settlement.Type

/**
 * A price an operator sets by hand: decimal odds up to the exchange's 1000, a
 * bookmaker rate or a fancy line (all positive, none above 1000), and the
 * rupees on offer at it. Bounded so a slip of the keyboard cannot publish an
 * absurd book (an exchange market further requires 1.01 .. 1000, server/odds/handPrices.ts).
 */
const ManualPriceLevel = Schema.Struct({
  price: Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1000)),
  size: Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(1_000_000_000))
})

/** An operator's manual price or status for one runner (bookmaker desks run their markets by hand). */
export const MarketPricePayload = Schema.Struct({
  marketId: Schema.String.check(Schema.isMaxLength(64)),
  selectionId: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  back: Schema.optionalKey(ManualPriceLevel),
  lay: Schema.optionalKey(ManualPriceLevel),
  status: Schema.optionalKey(BookStatus)
})
export type MarketPricePayload = typeof MarketPricePayload.Type

const Id = Schema.String.check(Schema.isMaxLength(64))

const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/))

/**
 * How anyone can check an event's result afterwards: every draw that decides
 * it comes from the event's seed, whose SHA-256 (the commitment) is
 * published before it starts; the seed itself once it has settled
 * (docs/security.md, "Results no one can predict").
 */
export const EventFairness = Schema.Struct({
  eventId: Schema.String,
  /** SHA-256 of the seed's hex text. */
  commitment: Hex64,
  /** The seed (64 hex digits), once the event has settled; null before. */
  seed: Schema.NullOr(Hex64),
  /** When the seed was revealed (ISO time). */
  revealedAt: Schema.NullOr(Schema.String)
})
export type EventFairness = typeof EventFairness.Type

/**
 * An exchange market's prices over the last hour (src/domain/priceHistory.ts), as columns: the times (ms, oldest
 * first) and each runner's best back price at each (null: none on offer), at most one point per `step` ms. `now` is
 * the server's time of the answer, so a client places the live points it adds on the same clock.
 */
export const PriceHistory = Schema.Struct({
  marketId: Schema.String,
  now: Schema.Int,
  step: Schema.Int,
  times: Schema.Array(Schema.Int),
  runners: Schema.Array(Schema.Struct({ selectionId: Schema.String, prices: Schema.Array(Schema.NullOr(Schema.Finite)) }))
})
export type PriceHistory = typeof PriceHistory.Type

/** Public reads: live prices, an event's fairness, fancy lines, racing, an exchange market's price history. */
export class OddsApi extends HttpApiGroup.make("odds")
  .add(
    HttpApiEndpoint.get("eventOdds", "/event-odds", { query: { event_id: Id }, success: Envelope(EventOdds) }),
    HttpApiEndpoint.get("eventFairness", "/event-fairness", { query: { event_id: Id }, success: Envelope(EventFairness) }).annotate(Reasons, ["InvalidInput", "NotFound"]),
    HttpApiEndpoint.get("fancies", "/admin/get-active-fanies-of-event", { query: { event_id: Id }, success: Envelope(Schema.Array(Fancy)) }),
    HttpApiEndpoint.get("racing", "/racing", { success: Envelope(Schema.Array(RacingSport)) }),
    HttpApiEndpoint.get("priceHistory", "/price-history", { query: { market_id: Id }, success: Envelope(PriceHistory) }).annotate(Reasons, ["InvalidInput", "NotFound"])
  )
  .prefix("/api/v1")
{}

/** Why a bet may be refused: the bet slip guards on these (a changed bookmaker or fancy rate offers the new one). */
const PLACEMENT_REASONS = [
  "InvalidInput",
  "SessionEnded",
  "NotFound",
  "Refused",
  "OddsChanged",
  "MarketSuspended",
  "MarketClosed",
  "StakeOutOfRange",
  "InsufficientBalance",
  // An Idempotency-Key reused for another bet.
  "Conflict",
  // Player protection: a loss limit the bet could pass, or an account closed to play.
  "LimitReached",
  ...CLOSED_TO_PLAY
] as const

/** Why cancelling or moving what waits of a bet may be refused. */
const WAITING_REASONS = ["InvalidInput", "SessionEnded", "NotFound", "NotWaiting", "Conflict"] as const
const EDIT_REASONS = [...WAITING_REASONS, "MarketSuspended", "MarketClosed", "InsufficientBalance", "LimitReached", ...CLOSED_TO_PLAY] as const

/** Signed-in players: limits, placing bets, their open bets. */
export const BettingEndpoints = {
  sportsDataAuthenticate,
  setting: HttpApiEndpoint.get("setting", "/setting", {
    query: { sportsId: Schema.optionalKey(Id), leagueId: Schema.optionalKey(Id), eventId: Schema.optionalKey(Id) },
    success: Envelope(BetSetting)
  }),
  updateSetting: HttpApiEndpoint.put("updateSetting", "/setting", { payload: BetPreferencesPayload, success: Envelope(BetSetting) }),
  betSport: HttpApiEndpoint.post("betSport", "/bet-sport", { payload: PlaceBetPayload, success: Envelope(PlacedBet) }).annotate(Reasons, PLACEMENT_REASONS),
  betRacing: HttpApiEndpoint.post("betRacing", "/bet-racing", { payload: PlaceBetPayload, success: Envelope(PlacedBet) }).annotate(Reasons, PLACEMENT_REASONS),
  fancyBetSport: HttpApiEndpoint.post("fancyBetSport", "/fancy-bet-sport", { payload: PlaceBetPayload, success: Envelope(PlacedBet) }).annotate(Reasons, PLACEMENT_REASONS),
  cancelBet: HttpApiEndpoint.post("cancelBet", "/cancel-bet", { payload: CancelBetPayload, success: Envelope(PlacedBet) }).annotate(Reasons, WAITING_REASONS),
  editBet: HttpApiEndpoint.post("editBet", "/edit-bet", { payload: EditBetPayload, success: Envelope(PlacedBet) }).annotate(Reasons, EDIT_REASONS),
  betsByMarket: HttpApiEndpoint.get("betsByMarket", "/bet-sport-byMarket", {
    query: { marketId: Schema.optionalKey(Id), eventId: Schema.optionalKey(Id) },
    success: Envelope(Schema.Array(Bet))
  })
} as const

/** Operators: results, voids and manual prices. */
export const BettingAdminEndpoints = {
  // Above the liability threshold a second staff member must approve: these refuse (SecondApproverNeeded), the desk asks for one.
  settleMarket: HttpApiEndpoint.post("settleMarket", "/admin/settle-market", { payload: SettleMarketPayload, success: Envelope(Settlement) })
    .annotate(Requires, "markets.settle").annotate(Reasons, ["InvalidInput", "NotFound", "Conflict", "Refused", "SecondApproverNeeded"]),
  voidMarket: HttpApiEndpoint.post("voidMarket", "/admin/void-market", { payload: VoidMarketPayload, success: Envelope(Settlement) })
    .annotate(Requires, "markets.settle").annotate(Reasons, ["InvalidInput", "NotFound", "Conflict", "Refused", "SecondApproverNeeded"]),
  marketPrice: HttpApiEndpoint.post("marketPrice", "/admin/market-price", { payload: MarketPricePayload, success: Envelope(MarketBook) })
    .annotate(Requires, "markets.manage").annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden", "NotFound", "Refused", "PricesContradict", "Unavailable"])
} as const

/** Signed-in players: bet limits, placing bets, their open bets (src/schema/betting.ts). */
export class BettingApi extends HttpApiGroup.make("betting")
  .add(BettingEndpoints.sportsDataAuthenticate, BettingEndpoints.setting, BettingEndpoints.updateSetting, BettingEndpoints.betSport, BettingEndpoints.betRacing, BettingEndpoints.fancyBetSport, BettingEndpoints.cancelBet, BettingEndpoints.editBet, BettingEndpoints.betsByMarket)
  .middleware(Authentication)
  .prefix("/api/v1")
{}

/** Operators: market results, voids and manual prices. */
export class BettingAdminApi extends HttpApiGroup.make("bettingAdmin")
  .add(BettingAdminEndpoints.settleMarket, BettingAdminEndpoints.voidMarket, BettingAdminEndpoints.marketPrice)
  .middleware(StaffAuthentication)
  .prefix("/api/v1")
{}
