import { normalizePhone } from "../domain/phone.ts"
import type { Region } from "../domain/regions.ts"
import type { Lobby } from "../domain/casino.ts"
import { launchIdOf } from "../domain/casino.ts"
import type { ChangePasswordForm, LoginForm, ResetForm, SignUpForm } from "../machines/authModal.machine.ts"
import type { PlaceRequest, SlipSelection } from "../machines/betSlip.machine.ts"
import type { BetsQuery } from "../machines/myBets.machine.ts"
import type { CashOutRequest } from "../machines/cashOut.machine.ts"
import type { CasinoGame } from "../schema/casino.ts"
import type { OddsChangeRule } from "../schema/betting.ts"
import type { LoginPayload, LogoutPayload } from "../schema/identity.ts"
import type { WalletCode } from "../schema/user.ts"

/**
 * What the composition root sends for each machine's call: the payloads of
 * SPEC sections 3 and 7, built from what the machine hands its actor. Pure
 * (no services), so the model-based walks record the very bodies the site
 * sends (tests/machines/walk.ts).
 */

/** A typed phone number in E.164 when it is valid, else as typed (the server explains what is wrong). */
const phone = (input: string) => normalizePhone(input) ?? input.trim()

/** Login: username or mobile_no, depending on the tab (only one is sent), and the password. */
export const loginPayload = (form: LoginForm): LoginPayload =>
  form.by === "phone" ? { mobile_no: phone(form.mobileNo), password: form.password } : { username: form.username.trim(), password: form.password }

/** Sign-up: name, mobile_no, password, confirmPassword, affiliateCode only when given, the 18+ confirmation and the state. */
export const signUpPayload = (form: SignUpForm) => ({
  name: form.name.trim(),
  mobile_no: phone(form.mobileNo),
  password: form.password,
  confirmPassword: form.confirmPassword,
  ...(form.referralCode.trim() ? { affiliateCode: form.referralCode.trim() } : {}),
  // The machine only submits a ticked box and a chosen state (validateSignUp).
  ageConfirmed: true as const,
  region: form.region as Region
})

export const verifyOtpPayload = ({ mobileNo, otp }: { mobileNo: string; otp: string }) => ({ mobile_no: mobileNo, otp })
export const resendOtpPayload = ({ mobileNo }: { mobileNo: string }) => ({ mobile_no: mobileNo })
/** forgot-password, first step. */
export const forgotPasswordPayload = ({ mobileNo }: { mobileNo: string }) => ({ mobile_no: phone(mobileNo) })
/** forgot-password, reset step: the code, the new password twice, and the number it was sent to. */
export const resetPasswordPayload = ({ mobileNo, form }: { mobileNo: string; form: ResetForm }) => ({
  mobile_no: mobileNo,
  otp: form.otp.trim(),
  password: form.password,
  confirm_password: form.confirmPassword
})
export const changePasswordPayload = (form: ChangePasswordForm) => ({
  old_password: form.oldPassword,
  password: form.password,
  confirm_password: form.confirmPassword
})
export const logoutPayload = ({ userId }: { userId: string | undefined }): LogoutPayload => (userId ? { user_id: userId } : {})
export const switchWalletPayload = ({ wallet }: { wallet: WalletCode }) => ({ selectedWallet: wallet })

/** Which endpoint takes a bet: fancy-bet-sport, bet-racing or bet-sport. */
export const betEndpointOf = (channel: SlipSelection["channel"]) => (channel === "fancy" ? "fancyBetSport" : channel === "racing" ? "betRacing" : "betSport")

/** A bet: marketId, selectionId, selectionType, odds, stake, size for a fancy line, whether it takes the best price, and Keep. */
export const placeBetPayload = ({ selection, odds, size, stake, bestPrice, persistence }: PlaceRequest) => ({
  marketId: selection.marketId,
  selectionId: selection.selectionId,
  selectionType: selection.side,
  odds,
  stake,
  ...(size === null ? {} : { size }),
  ...(bestPrice ? { bestPrice } : {}),
  ...(persistence ? { persistence } : {})
})
export const oddsRulePayload = ({ rule }: { rule: OddsChangeRule }) => ({ oddsChange: rule })
export const oneClickPayload = ({ stake }: { stake: number | null }) => ({ oneClick: stake })

/** cancel-bet: all of what waits of a bet. */
export const cancelBetPayload = ({ betId }: { betId: string }) => ({ betId })
/** edit-bet: what waits of a bet, to another price. */
export const editBetPayload = ({ betId, odds }: { betId: string; odds: number }) => ({ betId, odds })

/** bet-sport-byMarket for the slip: the market's open bets. */
export const marketBetsQuery = ({ marketId }: { marketId: string }) => ({ marketId })
/** bet-sport-byMarket for My Bets: one event's, or all. */
export const myBetsQuery = (query: BetsQuery) => (query.eventId ? { eventId: query.eventId } : {})

/** casino-games (with slots=true for slots), or sa-casino-games. */
export const casinoGamesQuery = ({ lobby }: { lobby: Lobby }): { readonly slots?: "true" } => (lobby === "slots" ? { slots: "true" } : {})
/** live-casino-dcs/{game_id} or sa-casino/{game_id}. */
export const launchParams = ({ lobby, game }: { lobby: Lobby; game: CasinoGame }) => ({ game_id: launchIdOf(lobby, game) })

/** Cash out: the quote of a part of a market's position (the fraction as text), then the cash out of that quote. */
export const cashOutQuoteQuery = ({ marketId, fraction }: { marketId: string; fraction: number }) => ({ marketId, fraction: String(fraction) })
export const cashOutPayload = ({ marketId, fraction, quoteId }: CashOutRequest) => ({ marketId, fraction, quoteId })
export const autoCashOutPayload = ({ marketId, target, floor }: { marketId: string; target: number | null; floor: number | null }) => ({ marketId, target, floor })
