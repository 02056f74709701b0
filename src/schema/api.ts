import { HttpApi, OpenApi } from "effect/http-api"
import { AdminApi } from "./admin.ts"
import { BettingAdminApi, BettingApi, OddsApi } from "./betting.ts"
import { BonusApi } from "./bonus.ts"
import { CashOutApi } from "./cashOut.ts"
import { CasinoAdminApi, CasinoApi, CasinoPlayApi, CasinoWalletApi } from "./casino.ts"
import { DESK_GROUPS } from "./desk/groups.ts"
import { IdentityApi, SessionApi, UserApi } from "./identity.ts"
import { IntegrityAdminApi } from "./integrity.ts"
import { Envelopes } from "./middleware.ts"
import { documentReasons } from "./openapi.ts"
import { PaymentsApi } from "./payments.ts"
import { ProtectionAdminApi, ProtectionApi } from "./protection.ts"
import { PushApi } from "./push.ts"
import { ReferralApi } from "./referral.ts"
import { ResultsApi } from "./results.ts"
import { SettingsApi, SystemApi } from "./settings.ts"
import { SportsApi } from "./sports.ts"
import { StatementsApi } from "./statements.ts"
import { VitalsApi } from "./vitals.ts"
import { WalletApi } from "./wallet.ts"

/**
 * The whole API: what the server implements and the OpenAPI document
 * describes. Each group lives beside its schemas and carries its own
 * middleware, so the client imports only the groups a screen calls (the first
 * page does not load the casino's or the operator's schemas).
 */
/** Every group, in the order the document lists them. */
const groups = [
  SettingsApi,
  SportsApi,
  // Settled markets of the last 7 days (/results).
  ResultsApi,
  SystemApi,
  VitalsApi,
  IdentityApi,
  SessionApi,
  UserApi,
  OddsApi,
  BettingApi,
  BettingAdminApi,
  // Cash out: quotes and hedges of a player's position.
  CashOutApi,
  PaymentsApi,
  WalletApi,
  // Web Push: a player's notifications on a browser.
  PushApi,
  StatementsApi,
  BonusApi,
  ReferralApi,
  AdminApi,
  // Integrity signals for the operator (reused references, shared payout accounts, devices, addresses).
  IntegrityAdminApi,
  // Player protection and the operator's compliance switches.
  ProtectionApi,
  ProtectionAdminApi,
  // Casino: lobbies for anyone, launches and rounds for players, the catalogue for operators, the wallet for providers.
  CasinoApi,
  CasinoPlayApi,
  CasinoAdminApi,
  CasinoWalletApi,
  // The operator's desk (/admin).
  ...DESK_GROUPS
] as const

export class Api extends HttpApi.make("khel")
  .add(...groups)
  .middleware(Envelopes)
  // Each endpoint's declared failure reasons, under their status codes.
  .annotateMerge(OpenApi.annotations({ title: "Khel API", version: "1", transform: documentReasons(groups) }))
{}
