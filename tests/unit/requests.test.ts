import { describe, expect, it } from "vitest"
import type { SlipSelection } from "../../src/machines/betSlip.machine.ts"
import {
  betEndpointOf,
  casinoGamesQuery,
  forgotPasswordPayload,
  launchParams,
  loginPayload,
  logoutPayload,
  myBetsQuery,
  placeBetPayload,
  signUpPayload
} from "../../src/root/requests.ts"

/**
 * The request bodies of SPEC sections 3 and 7 in the cases the model-based
 * walks do not take (they sign in by username, sign up from a referral
 * link, bet on exchange and fancy markets).
 */
describe("request bodies", () => {
  it("login sends mobile_no or username, never both", () => {
    expect(loginPayload({ by: "phone", mobileNo: "98765 43210", username: "ravi", password: "secret123", remember: true })).toEqual({ mobile_no: "+919876543210", password: "secret123" })
    expect(loginPayload({ by: "username", mobileNo: "+919876543210", username: " ravi ", password: "secret123", remember: false })).toEqual({ username: "ravi", password: "secret123" })
    // A number that is not one is sent as typed: the server explains what is wrong.
    expect(loginPayload({ by: "phone", mobileNo: " 12ab ", username: "", password: "x", remember: true })).toEqual({ mobile_no: "12ab", password: "x" })
  })

  it("sign-up carries affiliateCode only when a referral code was given, and always the 18+ confirmation and the state", () => {
    const form = { name: " Ravi ", mobileNo: "+919876543210", password: "secret123", confirmPassword: "secret123", referralCode: " ", ageConfirmed: true, region: "MH" }
    expect(signUpPayload(form)).toEqual({ name: "Ravi", mobile_no: "+919876543210", password: "secret123", confirmPassword: "secret123", ageConfirmed: true, region: "MH" })
    expect(signUpPayload({ ...form, referralCode: "FRIEND01" })).toMatchObject({ affiliateCode: "FRIEND01" })
  })

  it("forgot-password and logout", () => {
    expect(forgotPasswordPayload({ mobileNo: "9876543210" })).toEqual({ mobile_no: "+919876543210" })
    expect(logoutPayload({ userId: "u1" })).toEqual({ user_id: "u1" })
    expect(logoutPayload({ userId: undefined })).toEqual({})
  })

  it("a bet goes to the market's endpoint with the spec's body", () => {
    const racing: SlipSelection = {
      eventId: "e1", sportId: "7", leagueId: "l1", marketId: "1.9", marketName: "Win", marketType: "EXCHANGE", channel: "racing",
      selectionId: "h1", name: "Horse", side: "lay", odds: 4.2, size: null, runners: [], inPlay: false
    }
    expect(betEndpointOf("racing")).toBe("betRacing")
    expect(betEndpointOf("fancy")).toBe("fancyBetSport")
    expect(betEndpointOf("sport")).toBe("betSport")
    expect(placeBetPayload({ selection: racing, odds: 4.2, size: null, stake: 500, bestPrice: false, persistence: undefined, key: "k" })).toEqual({ marketId: "1.9", selectionId: "h1", selectionType: "lay", odds: 4.2, stake: 500 })
    expect(placeBetPayload({ selection: racing, odds: 4.2, size: null, stake: 500, bestPrice: true, persistence: "keep", key: "k" }))
      .toEqual({ marketId: "1.9", selectionId: "h1", selectionType: "lay", odds: 4.2, stake: 500, bestPrice: true, persistence: "keep" })
  })

  it("queries: My Bets for one event or all; casino lobbies and launch ids", () => {
    expect(myBetsQuery({ eventId: "e1" })).toEqual({ eventId: "e1" })
    expect(myBetsQuery({})).toEqual({})
    expect(casinoGamesQuery({ lobby: "slots" })).toEqual({ slots: "true" })
    expect(casinoGamesQuery({ lobby: "live" })).toEqual({})
    const game = { _id: "g", table_id: "", game_id: "dragon-tiger", provider: "khel", provider_name: "Khel", game_category: "", game_images: "", title: "" }
    // A live game without a table launches by its game id.
    expect(launchParams({ lobby: "live", game })).toEqual({ game_id: "dragon-tiger" })
  })
})
