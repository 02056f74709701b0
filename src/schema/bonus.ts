import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

/**
 * available: offered, not yet in the bonus wallet; active: credited, wagering
 * under way; completed: wagering met, can be claimed; claimed: moved to main;
 * forfeited: given up, removed from the bonus wallet.
 */
export const BonusStatus = Schema.Literals(["available", "active", "completed", "claimed", "forfeited"])
export type BonusStatus = typeof BonusStatus.Type

export const Bonus = Schema.Struct({
  _id: Schema.String,
  code: Schema.String,
  title: Schema.String,
  amount: Rupees,
  wageringRequired: Rupees,
  wagered: Rupees,
  /** What is still to wager before the bonus can be claimed (src/domain/bonus.ts says what counts). */
  wageringLeft: Rupees,
  status: BonusStatus,
  createdAt: Schema.String,
  activatedAt: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Schema.String)
})
export type Bonus = typeof Bonus.Type

/** An offer's terms as the operator set them (src/domain/bonusRules.ts): the share of the deposit, its cap, the wagering. */
export const BonusTerms = Schema.Struct({ percent: Schema.Number, cap: Rupees, wagerTimes: Schema.Number })
export type BonusTerms = typeof BonusTerms.Type

export const BonusData = Schema.Struct({
  /** What the bonus wallet holds now. */
  bonusBalance: Rupees,
  bonuses: Schema.Array(Bonus),
  /** The welcome offer a first approved deposit brings now. */
  welcome: BonusTerms
})
export type BonusData = typeof BonusData.Type

export const BonusActionPayload = Schema.Struct({ bonusId: Schema.String.check(Schema.isMaxLength(64)) })
export type BonusActionPayload = typeof BonusActionPayload.Type

/** Bonuses of the signed-in player (Authentication is added in api.ts). */
export class BonusApi extends HttpApiGroup.make("bonus")
  .add(
    HttpApiEndpoint.get("bonusData", "/bonus-data", { success: Envelope(BonusData) }),
    HttpApiEndpoint.put("activateBonus", "/activate-bonus", { payload: BonusActionPayload, success: Envelope(BonusData) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "NotFound", "Conflict", ...CLOSED_TO_PLAY]),
    HttpApiEndpoint.put("claimBonus", "/claim-bonus", { payload: BonusActionPayload, success: Envelope(BonusData) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "NotFound", "Conflict", ...CLOSED_TO_PLAY]),
    HttpApiEndpoint.put("forfeitBonus", "/forfeit-bonus", { payload: BonusActionPayload, success: Envelope(BonusData) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "NotFound", "Conflict"])
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
