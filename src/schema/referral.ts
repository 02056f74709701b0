import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { BonusTerms } from "./bonus.ts"
import { Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

export const ReferralUser = Schema.Struct({
  _id: Schema.String,
  /** Masked: the referrer sees who joined, not their contact details. */
  name: Schema.String,
  username: Schema.String,
  joinedAt: Schema.String,
  /** The reward earned from this player (0 until it is paid). */
  reward: Rupees,
  rewardedAt: Schema.NullOr(Schema.String),
  /** Awaiting their first deposit, then their own play on settled markets; rewarded, or withheld (shared payout account, device or address). */
  status: Schema.Literals(["awaitingDeposit", "awaitingPlay", "rewarded", "withheld"])
})
export type ReferralUser = typeof ReferralUser.Type

export const ReferralUsers = Schema.Struct({
  referralCode: Schema.String,
  refBonus: Rupees,
  users: Schema.Array(ReferralUser),
  /** The reward a referred player's first approved deposit earns now. */
  rule: BonusTerms
})
export type ReferralUsers = typeof ReferralUsers.Type

export const ReferralTransaction = Schema.Struct({
  _id: Schema.String,
  kind: Schema.Literals(["referral_reward", "referral_claim"]),
  description: Schema.String,
  amount: Rupees,
  createdAt: Schema.String
})
export type ReferralTransaction = typeof ReferralTransaction.Type

export const WeeklyQuery = Schema.Struct({
  startDate: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(40))),
  endDate: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(40)))
})
export type WeeklyQuery = typeof WeeklyQuery.Type

/** A week from Sunday 00:00 to Saturday 23:59:59. */
export const ReferralWeek = Schema.Struct({
  startDate: Schema.String,
  endDate: Schema.String,
  rewards: Schema.Int,
  amount: Rupees
})
export type ReferralWeek = typeof ReferralWeek.Type

/** Referrals of the signed-in player; the spec's spellings are kept (Authentication is added in api.ts). */
export class ReferralApi extends HttpApiGroup.make("referral")
  .add(
    HttpApiEndpoint.get("referralUsers", "/get-refferal-users", { success: Envelope(ReferralUsers) }),
    HttpApiEndpoint.get("referralTransactions", "/get-refferal-transactions", { success: Envelope(Schema.Array(ReferralTransaction)) }),
    HttpApiEndpoint.get("weeklyReferralTransactions", "/get-weekly-refferal-transactions", { query: WeeklyQuery, success: Envelope(Schema.Array(ReferralWeek)) }),
    HttpApiEndpoint.put("claimRefBonus", "/claim-ref-bonus", { payload: Schema.Struct({}), success: Envelope(ReferralUsers) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "Refused", "Conflict", ...CLOSED_TO_PLAY])
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
