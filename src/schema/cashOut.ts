import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Bet } from "./bets.ts"
import { Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

/**
 * Cash out (src/domain/cashOut.ts): hedge bets that make a position pay the same whatever wins. Amounts are rupees
 * with two decimals on the wire, like every amount of the API; the server keeps paise.
 */

const Id = Schema.String.check(Schema.isMaxLength(64))

/** The part of the position cashed out: more than 0, at most 1 (all of it). */
export const Fraction = Schema.Finite.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1))

/** A quote: what cashing out `fraction` of the position on `marketId` pays now, whatever wins. */
export const CashOutQuote = Schema.Struct({
  marketId: Schema.String,
  fraction: Fraction,
  /**
   * What the part cashed out locks whatever wins, rupees: f·G for a part f of a full cash out locking G (the least
   * over the runners of `after` less the kept part's `(1 − f) × before`; for all of it, the least of `after`).
   */
  value: Rupees,
  /** Each runner's profit or loss before and after the hedge, rupees. */
  perRunner: Schema.Array(Schema.Struct({ selectionId: Schema.String, before: Rupees, after: Rupees })),
  /** Names this quote to `POST /cash-out` (opaque, signed by the server). */
  quoteId: Schema.String,
  /** After this (ISO time) the quote is only a hint: accepting it re-quotes. */
  expiresAt: Schema.String
})
export type CashOutQuote = typeof CashOutQuote.Type

export const CashOutQuoteQuery = Schema.Struct({
  marketId: Id,
  /** The fraction as text ("0.5"); all of the position when left out. */
  fraction: Schema.optionalKey(Schema.NumberFromString.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1)))
})
export type CashOutQuoteQuery = typeof CashOutQuoteQuery.Type

export const CashOutPayload = Schema.Struct({
  marketId: Id,
  fraction: Fraction,
  quoteId: Schema.String.check(Schema.isMaxLength(1000))
})
export type CashOutPayload = typeof CashOutPayload.Type

/** The cash out was taken: its hedge bets (marked `cashOut`), the market's hold and the balance of its wallet after it. */
export const CashedOut = Schema.Struct({
  outcome: Schema.Literal("cashedOut"),
  marketId: Schema.String,
  fraction: Fraction,
  /** What the part cashed out locks whatever wins, rupees (as a quote's `value`). */
  value: Rupees,
  bets: Schema.Array(Bet),
  marketExposure: Rupees,
  balance: Rupees
})
export type CashedOut = typeof CashedOut.Type

/**
 * The value fell below the quote by more than the tolerance (or the quote expired): nothing was written; `quote` is
 * the new one, for the player to confirm again (the bet slip's odds-change rule). A success, since a failure's
 * envelope carries no data.
 */
export const Requoted = Schema.Struct({
  outcome: Schema.Literal("requoted"),
  quote: CashOutQuote
})
export type Requoted = typeof Requoted.Type

export const CashOutAnswer = Schema.Union([CashedOut, Requoted])
export type CashOutAnswer = typeof CashOutAnswer.Type

/**
 * Auto cash out on a market: the whole position is cashed out once its value reaches `target` (take profit) or falls
 * to `floor` (stop loss), rupees; null: not that side. The rule ends when it fires.
 */
export const AutoCashOutRule = Schema.Struct({
  marketId: Schema.String,
  target: Schema.NullOr(Rupees),
  floor: Schema.NullOr(Rupees)
})
export type AutoCashOutRule = typeof AutoCashOutRule.Type

/** Sets a market's rule; both null removes it. */
export const AutoCashOutPayload = Schema.Struct({
  marketId: Id,
  target: Schema.NullOr(Schema.Finite),
  floor: Schema.NullOr(Schema.Finite)
})
export type AutoCashOutPayload = typeof AutoCashOutPayload.Type

/**
 * Why there is no quote or no cash out: no position or an already flat one (`NothingToCashOut`), a fancy market or a
 * ladder too thin for the hedge (`CashOutUnavailable`), the market suspended or closed, the account closed to play.
 */
const QUOTE_REASONS = ["InvalidInput", "SessionEnded", "NotFound", "NothingToCashOut", "CashOutUnavailable", "MarketSuspended", "MarketClosed"] as const
const ACCEPT_REASONS = [
  ...QUOTE_REASONS,
  "InsufficientBalance",
  "LimitReached",
  // An Idempotency-Key reused for another request, or the position changed while the cash out was written.
  "Conflict",
  "Refused",
  ...CLOSED_TO_PLAY
] as const

export const CashOutEndpoints = {
  quote: HttpApiEndpoint.get("cashOutQuote", "/cash-out/quote", { query: CashOutQuoteQuery, success: Envelope(CashOutQuote) }).annotate(Reasons, QUOTE_REASONS),
  // Money moves: send an Idempotency-Key.
  accept: HttpApiEndpoint.post("cashOut", "/cash-out", { payload: CashOutPayload, success: Envelope(CashOutAnswer) }).annotate(Reasons, ACCEPT_REASONS),
  /** The player's auto cash-out rules (on markets still open). */
  autoRules: HttpApiEndpoint.get("autoCashOutRules", "/cash-out/auto", { success: Envelope(Schema.Array(AutoCashOutRule)) }),
  setAutoRule: HttpApiEndpoint.put("setAutoCashOut", "/cash-out/auto", { payload: AutoCashOutPayload, success: Envelope(Schema.Array(AutoCashOutRule)) })
    .annotate(Reasons, ["InvalidInput", "SessionEnded", "NotFound", "CashOutUnavailable", "MarketClosed", ...CLOSED_TO_PLAY])
} as const

/** Signed-in players: quotes, cash outs and auto cash-out rules. */
export class CashOutApi extends HttpApiGroup.make("cashOut")
  .add(CashOutEndpoints.quote, CashOutEndpoints.accept, CashOutEndpoints.autoRules, CashOutEndpoints.setAutoRule)
  .middleware(Authentication)
  .prefix("/api/v1")
{}
