import { Context, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { BettingAdminEndpoints as BA, BettingEndpoints as B, OddsApi } from "./betting.ts"
import { CasinoAdminApi, CasinoApi, CasinoPlayApi, CasinoWalletApi } from "./casino.ts"
import { ApiError, Envelope } from "./envelope.ts"
import { ChangePasswordPayload, ForgotPasswordPayload, LoginPayload, LogoutPayload, MobilePayload, SignUpPayload, VerifyOtpPayload } from "./identity.ts"
import { AllAppSettings, Banner, Health, SiteSettings } from "./settings.ts"
import { AdminApi } from "./admin.ts"
import { BonusApi } from "./bonus.ts"
import { PaymentsApi } from "./payments.ts"
import { ReferralApi } from "./referral.ts"
import { StatementsApi } from "./statements.ts"
import { WalletApi } from "./wallet.ts"
import { SportsData } from "./sports.ts"
import { type Role, User } from "./user.ts"

/**
 * Renders every `ApiError`, bad payload and defect as a `FailureEnvelope`.
 * Declared on the whole API so every handler may fail with `ApiError`.
 */
export class Envelopes extends HttpApiMiddleware.Service<Envelopes>()("khel/Envelopes", {
  error: ApiError
}) {}

/** The signed-in account behind a bearer token. */
export class CurrentUser extends Context.Service<CurrentUser, {
  readonly id: string
  readonly role: Role
  readonly sessionId: string
}>()("khel/CurrentUser") {}

/** Bearer sessions: an unknown, expired or revoked token is HTTP 401. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentUser }>()("khel/Authentication", {
  security: { bearer: HttpApiSecurity.bearer },
  error: ApiError
}) {}

/** Where a code was sent, in E.164 (the client keeps it for the OTP step). */
export const OtpSent = Schema.Struct({ mobile_no: Schema.String })

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("appSettings", "/app-settings", { success: Envelope(SiteSettings) }),
    HttpApiEndpoint.get("allAppSettings", "/get-all-app-settings", { success: Envelope(AllAppSettings) }),
    HttpApiEndpoint.get("advertisement", "/advertisement", { success: Envelope(Schema.Array(Banner)) })
  )
  .prefix("/api/v1")
{}

export class SportsApi extends HttpApiGroup.make("sports")
  .add(HttpApiEndpoint.get("sportsData", "/get-sports-data", { success: Envelope(SportsData) }))
  .prefix("/api/v1")
{}

export class SystemApi extends HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("health", "/health", { success: Envelope(Health) }))
  .prefix("/api/v1")
{}

/** Visitors: sign-up, OTP, sign-in and password reset. */
export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.post("signUp", "/sign-up", { payload: SignUpPayload, success: Envelope(OtpSent) }),
    HttpApiEndpoint.post("verifyOtp", "/verify-otp", { payload: VerifyOtpPayload, success: Envelope(User) }),
    HttpApiEndpoint.post("resendOtp", "/resend-otp", { payload: MobilePayload, success: Envelope(OtpSent) }),
    HttpApiEndpoint.post("login", "/login", { payload: LoginPayload, success: Envelope(User) }),
    HttpApiEndpoint.post("forgotPassword", "/forgot-password", { payload: ForgotPasswordPayload, success: Envelope(Schema.NullOr(OtpSent)) })
  )
  .prefix("/identity/user")
{}

/** Signed-in players: their session and password. */
export class SessionApi extends HttpApiGroup.make("session")
  .add(
    HttpApiEndpoint.post("changePassword", "/change-password", { payload: ChangePasswordPayload, success: Envelope(Schema.Null) }),
    HttpApiEndpoint.post("logout", "/logout", { payload: LogoutPayload, success: Envelope(Schema.Null) })
  )
  .middleware(Authentication)
  .prefix("/identity/user")
{}

export class UserApi extends HttpApiGroup.make("user")
  .add(HttpApiEndpoint.get("getUserData", "/getUserData", { success: Envelope(User) }))
  .middleware(Authentication)
  .prefix("/api/v1")
{}

/** Signed-in players: bet limits, placing bets, their open bets (src/schema/betting.ts). */
export class BettingApi extends HttpApiGroup.make("betting")
  .add(B.sportsDataAuthenticate, B.setting, B.updateSetting, B.betSport, B.betRacing, B.fancyBetSport, B.betsByMarket)
  .middleware(Authentication)
  .prefix("/api/v1")
{}

/** Operators: market results, voids and manual prices. */
export class BettingAdminApi extends HttpApiGroup.make("bettingAdmin")
  .add(BA.settleMarket, BA.voidMarket, BA.marketPrice)
  .middleware(Authentication)
  .prefix("/api/v1")
{}

export class Api extends HttpApi.make("khel")
  .add(SettingsApi)
  .add(SportsApi)
  .add(SystemApi)
  .add(IdentityApi)
  .add(SessionApi)
  .add(UserApi)
  .add(OddsApi)
  .add(BettingApi)
  .add(BettingAdminApi)
  // Wallet and payments: every group needs a session.
  .add(PaymentsApi.middleware(Authentication))
  .add(WalletApi.middleware(Authentication))
  .add(StatementsApi.middleware(Authentication))
  .add(BonusApi.middleware(Authentication))
  .add(ReferralApi.middleware(Authentication))
  .add(AdminApi.middleware(Authentication))
  // Casino: lobbies for anyone, launches and rounds for players, the catalogue for operators, the wallet for providers.
  .add(CasinoApi)
  .add(CasinoPlayApi.middleware(Authentication))
  .add(CasinoAdminApi.middleware(Authentication))
  .add(CasinoWalletApi)
  .middleware(Envelopes)
  .annotateMerge(OpenApi.annotations({ title: "Khel API", version: "1" }))
{}
