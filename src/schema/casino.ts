import { Context, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { ApiError, Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication, Requires, StaffAuthentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const Id = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))

/** A game as the lobbies list it (SPEC section 3); `game_images` is its artwork path. */
export const CasinoGame = Schema.Struct({
  _id: Schema.String,
  table_id: Schema.String,
  game_id: Schema.String,
  provider_name: Schema.String,
  provider: Schema.String,
  game_category: Schema.String,
  game_images: Schema.String,
  title: Schema.String
})
export type CasinoGame = typeof CasinoGame.Type

export const CasinoGamesQuery = Schema.Struct({ slots: Schema.optionalKey(Schema.Literals(["true", "false"])) })

/** Live tables launch by table_id, slots and SA Gaming by game_id (SPEC section 7). */
export const LaunchParams = Schema.Struct({ game_id: Id })

/** One casino round of the player, as casino-bets-by-date lists it. Amounts in rupees. */
export const CasinoBet = Schema.Struct({
  _id: Schema.String,
  roundId: Schema.String,
  provider: Schema.String,
  provider_name: Schema.String,
  game_id: Schema.String,
  title: Schema.String,
  stake: Rupees,
  win: Rupees,
  refunded: Rupees,
  /** win + refunded - stake: what the round did to the player's balance. */
  profitLoss: Rupees,
  status: Schema.Literals(["open", "settled", "cancelled"]),
  createdAt: Schema.String,
  settledAt: Schema.NullOr(Schema.String)
})
export type CasinoBet = typeof CasinoBet.Type

/** `provider`: a provider code or "all"; `date`: a day in India, YYYY-MM-DD. */
export const CasinoBetsQuery = Schema.Struct({ provider: Text(32), date: Text(10) })
export type CasinoBetsQuery = typeof CasinoBetsQuery.Type

// ---- operators ----

export const GameKind = Schema.Literals(["live", "slot"])

/** A catalogue entry as operators edit it: `category` is what was entered, `game_category` where it is listed. */
export const AdminCasinoGame = Schema.Struct({
  ...CasinoGame.fields,
  kind: GameKind,
  category: Schema.String,
  sort: Schema.Int,
  enabled: Schema.Boolean
})
export type AdminCasinoGame = typeof AdminCasinoGame.Type

export const CasinoGamePayload = Schema.Struct({
  provider: Text(32),
  kind: GameKind,
  table_id: Schema.optionalKey(Text(100)),
  game_id: Id,
  title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(80)),
  category: Text(40),
  sort: Schema.optionalKey(Schema.Int),
  enabled: Schema.optionalKey(Schema.Boolean)
})
export type CasinoGamePayload = typeof CasinoGamePayload.Type

export const CasinoGameUpdate = Schema.Struct({
  table_id: Schema.optionalKey(Text(100)),
  game_id: Schema.optionalKey(Id),
  title: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(80))),
  category: Schema.optionalKey(Text(40)),
  sort: Schema.optionalKey(Schema.Int),
  enabled: Schema.optionalKey(Schema.Boolean)
})
export type CasinoGameUpdate = typeof CasinoGameUpdate.Type

/** Operator switches for the casino. */
export const CasinoSettings = Schema.Struct({ creditPlayersAllowed: Schema.Boolean })
export type CasinoSettings = typeof CasinoSettings.Type

/** A provider as operators see it; the wallet secret is only shown once, when rotated. */
export const CasinoProvider = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  active: Schema.Boolean,
  launchUrl: Schema.NullOr(Schema.String),
  hasWalletSecret: Schema.Boolean,
  walletSecret: Schema.optionalKey(Schema.String)
})
export type CasinoProvider = typeof CasinoProvider.Type

export const CasinoProviderUpdate = Schema.Struct({
  active: Schema.optionalKey(Schema.Boolean),
  /** A URL template with {table_id}, {game_id}, {token} and {lobby}; null makes its games unavailable. */
  launchUrl: Schema.optionalKey(Schema.NullOr(Text(500))),
  /** Makes a new wallet secret and answers it (once). */
  rotateSecret: Schema.optionalKey(Schema.Boolean)
})
export type CasinoProviderUpdate = typeof CasinoProviderUpdate.Type

// ---- the seamless wallet (providers call it) ----

/** Rupees with at most two decimals, never negative. */
const Amount = Rupees.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThanOrEqualTo(10_000_000))

export const WalletBalancePayload = Schema.Struct({ token: Text(200) })
export type WalletBalancePayload = typeof WalletBalancePayload.Type

/** A bet: takes `amount` from the player of the game session `token`. */
export const WalletDebitPayload = Schema.Struct({
  token: Text(200),
  transactionId: Id,
  roundId: Id,
  amount: Amount
})
export type WalletDebitPayload = typeof WalletDebitPayload.Type

/** A win (0 for a lost round): closes the round. The game session may have ended. */
export const WalletCreditPayload = Schema.Struct({
  playerId: Id,
  transactionId: Id,
  roundId: Id,
  amount: Amount
})
export type WalletCreditPayload = typeof WalletCreditPayload.Type

/** Cancels the debit `refTransactionId` of a round that has had no credit. */
export const WalletRollbackPayload = Schema.Struct({
  playerId: Id,
  transactionId: Id,
  refTransactionId: Id,
  roundId: Id
})
export type WalletRollbackPayload = typeof WalletRollbackPayload.Type

export const WalletResult = Schema.Struct({
  playerId: Schema.String,
  currency: Schema.Literal("INR"),
  /** What the player can stake now, in rupees. */
  balance: Rupees,
  transactionId: Schema.NullOr(Schema.String)
})
export type WalletResult = typeof WalletResult.Type

/** The balance call also tells the provider which game the session was opened for. */
export const WalletSession = Schema.Struct({ ...WalletResult.fields, gameId: Schema.String })
export type WalletSession = typeof WalletSession.Type

/** The provider whose signature a wallet call carried. */
export class CasinoProviderCode extends Context.Service<CasinoProviderCode, string>()("khel/CasinoProviderCode") {}

/**
 * Wallet calls are signed by the provider: `X-Provider` names it,
 * `X-Timestamp` is the Unix time in seconds and `X-Signature` the hex
 * HMAC-SHA256 of `"{timestamp}.{raw body}"` under the provider's secret.
 */
export class ProviderSignature extends HttpApiMiddleware.Service<ProviderSignature, { provides: CasinoProviderCode }>()("khel/ProviderSignature", {
  security: { signature: HttpApiSecurity.apiKey({ key: "X-Signature", in: "header" }) },
  error: ApiError
}) {}

// ---- groups ----

/** The lobbies: anyone may browse. */
export class CasinoApi extends HttpApiGroup.make("casino")
  .add(
    HttpApiEndpoint.get("casinoGames", "/casino-games", { query: CasinoGamesQuery, success: Envelope(Schema.Array(CasinoGame)) }),
    HttpApiEndpoint.get("saCasinoGames", "/sa-casino-games", { success: Envelope(Schema.Array(CasinoGame)) })
  )
  .prefix("/api/v1")
{}

/** Launching a game and the player's rounds (Authentication is added in api.ts). The launch answers the URL to open. */
export class CasinoPlayApi extends HttpApiGroup.make("casinoPlay")
  .add(
    HttpApiEndpoint.get("liveCasinoLaunch", "/live-casino-dcs/:game_id", { params: LaunchParams, success: Envelope(Schema.String) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "NotFound", ...CLOSED_TO_PLAY]),
    HttpApiEndpoint.get("saCasinoLaunch", "/sa-casino/:game_id", { params: LaunchParams, success: Envelope(Schema.String) })
      .annotate(Reasons, ["SessionEnded", "Forbidden", "NotFound", ...CLOSED_TO_PLAY]),
    HttpApiEndpoint.get("casinoBetsByDate", "/casino-bets-by-date", { query: CasinoBetsQuery, success: Envelope(Schema.Array(CasinoBet)) })
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}

const GameId = Schema.Struct({ id: Id })
const ProviderParam = Schema.Struct({ code: Text(32) })

/** Operators: the catalogue, providers and casino settings. */
export class CasinoAdminApi extends HttpApiGroup.make("casinoAdmin")
  .add(
    HttpApiEndpoint.get("games", "/casino-games", { success: Envelope(Schema.Array(AdminCasinoGame)) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.post("addGame", "/casino-games", { payload: CasinoGamePayload, success: Envelope(AdminCasinoGame) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.put("updateGame", "/casino-games/:id", { params: GameId, payload: CasinoGameUpdate, success: Envelope(AdminCasinoGame) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.get("settings", "/casino-settings", { success: Envelope(CasinoSettings) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.put("updateSettings", "/casino-settings", { payload: CasinoSettings, success: Envelope(CasinoSettings) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.get("providers", "/casino-providers", { success: Envelope(Schema.Array(CasinoProvider)) }).annotate(Requires, "casino.manage"),
    HttpApiEndpoint.put("updateProvider", "/casino-providers/:code", { params: ProviderParam, payload: CasinoProviderUpdate, success: Envelope(CasinoProvider) })
      .annotate(Requires, "casino.manage")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
{}

/** The seamless wallet: what a game provider calls to move a player's money (docs/casino.md). */
export class CasinoWalletApi extends HttpApiGroup.make("casinoWallet")
  .add(
    HttpApiEndpoint.post("balance", "/balance", { payload: WalletBalancePayload, success: Envelope(WalletSession) }),
    HttpApiEndpoint.post("debit", "/debit", { payload: WalletDebitPayload, success: Envelope(WalletResult) }),
    HttpApiEndpoint.post("credit", "/credit", { payload: WalletCreditPayload, success: Envelope(WalletResult) }),
    HttpApiEndpoint.post("rollback", "/rollback", { payload: WalletRollbackPayload, success: Envelope(WalletResult) })
  )
  .middleware(ProviderSignature)
  .prefix("/api/v1/casino/wallet")
  .annotateMerge(OpenApi.annotations({ title: "Casino seamless wallet", description: "Called by game providers; signed with HMAC-SHA256 (docs/casino.md)." }))
{}
