/** The query parameter that opens Register with a referral code filled in, on any page (SPEC section 3). */
export const REFERRAL_PARAM = "referral_code"

/** The referral code a URL's query string (`location.search`) carries, if any: an empty one is none. */
export const referralCodeOf = (search: string): string | undefined => new URLSearchParams(search).get(REFERRAL_PARAM) || undefined

/** The link a player shares: the site's home page carrying their code. */
export const referralLink = (origin: string, code: string) => `${origin}/?${REFERRAL_PARAM}=${encodeURIComponent(code)}`

/** Where a referred friend's reward stands. */
export type ReferralStatus = "awaitingDeposit" | "awaitingPlay" | "rewarded" | "withheld"

/** The Reward column of the friends list. */
export const referralRewardText = (status: ReferralStatus, reward: string) =>
  status === "rewarded" ? reward : status === "awaitingPlay" ? "Awaiting their play" : status === "withheld" ? "Not eligible" : "Awaiting first deposit"
