/** The query parameter that opens Register with a referral code filled in, on any page (SPEC section 3). */
export const REFERRAL_PARAM = "referral_code"

/** The link a player shares: the site's home page carrying their code. */
export const referralLink = (origin: string, code: string) => `${origin}/?${REFERRAL_PARAM}=${encodeURIComponent(code)}`
