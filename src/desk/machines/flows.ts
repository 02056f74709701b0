import type { ActorRefFrom } from "xstate"
import { MARKET_RULES } from "../../domain/risk.ts"
import type { MarketRisk, RiskMarket, RiskSummary } from "../../schema/desk/markets.ts"
import type { TodayReport } from "../../schema/desk/reports.ts"
import type { DepositDetail, DeskDeposit, DeskWithdrawal, WithdrawalDetail } from "../../schema/desk/queues.ts"
import type { DeskSession } from "../../schema/desk/staff.ts"
import type { DeskChanged } from "../../schema/realtime.ts"
import type { IntegritySignal } from "../../schema/integrity.ts"
import type { AuditEntry } from "../../schema/desk/audit.ts"
import type { AdjustmentApproval, DeskPlayer, PlayerDetail } from "../../schema/desk/players.ts"
import type { AdminCasinoGame, CasinoBet, CasinoProvider } from "../../schema/casino.ts"
import { adjustmentOf, noteProblem, statusProblem } from "../../domain/deskPlayers.ts"
import { bannerProblem, siteProblem } from "../../domain/siteSettings.ts"
import type { BonusRules, DeskBanner } from "../../schema/desk/settings.ts"
import { validateAccount } from "../../domain/payments.ts"
import type { AdminDepositAccount } from "../../schema/admin.ts"
import type { ComplianceSettings } from "../../schema/protection.ts"
import type { SiteSettings } from "../../schema/settings.ts"
import type { StaffAccount } from "../../schema/desk/staff.ts"
import { settingsRules } from "../../domain/deskSettings.ts"
import { bonusRulesFromFields, bonusRulesProblem } from "../../domain/bonusRules.ts"
import { listMachine } from "./list.machine.ts"
import { queueMachine } from "./queue.machine.ts"
import { type Fields, recordMachine } from "./record.machine.ts"

/**
 * The desk's flows by name: the machine each screen opens (`flow.open`) and
 * the topics of the desk's socket it hears. The composition root
 * (src/desk/root/flows.ts) provides each with its calls.
 */
/** A deposit as the desk shows it: its detail and its screenshot (a data URL), loaded together. */
export type DepositView = DepositDetail & { readonly image: string | null }
export const depositQueue = queueMachine<DeskDeposit, DepositView>()
export const withdrawalQueue = queueMachine<DeskWithdrawal, WithdrawalDetail>()
/** The staff member's own sessions (the account screen). */
export const sessionsRecord = recordMachine<ReadonlyArray<DeskSession>>()
/** Integrity signals: reused references, payout accounts, devices and addresses shared between players. */
export const signalsList = listMachine<IntegritySignal>()
/** The audit trail: staff actions found by a search, newest first; exported as CSV. */
export const auditList = listMachine<AuditEntry>()
/** Players found by a search, a page at a time. */
export const playersList = listMachine<DeskPlayer>()

const adjustment = (fields: Fields) => {
  const amount = adjustmentOf(Number(fields.amount ?? ""), fields.reason ?? "")
  return "problem" in amount ? amount.problem : undefined
}

/**
 * A player's page and what staff do there (src/domain/deskPlayers.ts checks each before it is sent); `approve` and
 * `decline` decide a large adjustment waiting for a second approver (`fields.approval`).
 */
export const playerRecord = recordMachine<PlayerDetail>({
  note: (fields) => noteProblem(fields.note ?? ""),
  suspend: (fields, detail) => (detail.player.status !== "active" ? "Only an active player can be suspended." : statusProblem(fields.reason ?? "")),
  reactivate: (fields, detail) => (detail.player.status !== "suspended" ? "This player is not suspended." : statusProblem(fields.reason ?? "")),
  credit: adjustment,
  debit: adjustment,
  approve: MARKET_RULES.approve,
  decline: MARKET_RULES.decline
})
/** Manual adjustments waiting for a second approver (all, or one player's). */
export const adjustmentsList = listMachine<AdjustmentApproval>()

/** The house's position over every market, with the settlements waiting for a second approver (approve, decline). */
export const riskSummary = recordMachine<RiskSummary>(MARKET_RULES)
/** Markets still to settle, biggest liability first. */
export const riskMarkets = listMachine<RiskMarket>()
/** One market's book and what staff do to it: suspend, resume, price, settle, void, approve, decline. */
export const marketRecord = recordMachine<MarketRisk>(MARKET_RULES)

/** The casino's providers and games, as the Casino screen switches them on or off. */
export interface CasinoCatalogue {
  readonly providers: ReadonlyArray<CasinoProvider>
  readonly games: ReadonlyArray<AdminCasinoGame>
}
/** The Casino screen: `provider` (fields `code`, `on`) and `game` (fields `game`, `on`) switch one on ("true") or off. */
export const casinoRecord = recordMachine<CasinoCatalogue>({
  provider: (fields) => (fields.code ? undefined : "Choose the provider."),
  game: (fields) => (fields.game ? undefined : "Choose the game.")
})
/** A player's casino rounds of a day (query `player`, `date`). */
export const roundsList = listMachine<CasinoBet>()

/** The Today figures (the charts' span, 7 or 30 days, is its field `span`). */
export const todayRecord = recordMachine<TodayReport>()

/** The player site's settings: the fields typed over what the server has; `save` checks them all (src/domain/siteSettings.ts). */
export const siteRecord = recordMachine<SiteSettings>({ save: (fields, site) => siteProblem({ ...site, ...fields }) })
/** The welcome offer and the referral reward: the fields typed over what the server has; `save` checks them all (src/domain/bonusRules.ts). */
export const bonusRulesRecord = recordMachine<BonusRules>({ save: (fields, rules) => bonusRulesProblem(bonusRulesFromFields(fields, rules)) })
/** The operator's deposit accounts: add one (UPI or bank, as the player's own accounts are checked), turn one off or on. */
export const depositAccountsRecord = recordMachine<ReadonlyArray<AdminDepositAccount>>({
  add: (fields) => validateAccount({ type: fields.type === "bank" ? "bank" : "upi", accountNumber: fields.accountNumber ?? "", accountHolderName: fields.accountHolderName ?? "", bankName: fields.bankName, ifscCode: fields.ifscCode, accountType: fields.accountType === "current" ? "current" : "savings" }),
  off: (fields, accounts) => (accounts.some((account) => account._id === fields.account) ? undefined : "Choose an account."),
  on: (fields, accounts) => (accounts.some((account) => account._id === fields.account) ? undefined : "Choose an account.")
})
/** Protection settings: the regions not served, the real-money switch, the limits new players start with. */
export const protectionRecord = recordMachine<ComplianceSettings>(settingsRules.protection)
/** Home-page banners: upload one (title, image, offer or not), move one up or down, remove one. */
const chosenBanner = (fields: Fields, banners: ReadonlyArray<DeskBanner>) => (banners.some((banner) => banner.id === fields.banner) ? undefined : "Choose a banner.")
export const bannersRecord = recordMachine<ReadonlyArray<DeskBanner>>({
  add: (fields) => bannerProblem({ title: fields.title ?? "", image: fields.image ?? "" }),
  up: chosenBanner,
  down: chosenBanner,
  remove: chosenBanner
})
/** Staff accounts (DIRECTOR): create one with a role; change a role or status; reset a second factor. */
export const staffRecord = recordMachine<ReadonlyArray<StaffAccount>>(settingsRules.staff)

export interface DeskFlows {
  readonly deposits: typeof depositQueue
  readonly withdrawals: typeof withdrawalQueue
  readonly sessions: typeof sessionsRecord
  readonly signals: typeof signalsList
  readonly players: typeof playersList
  readonly player: typeof playerRecord
  readonly adjustments: typeof adjustmentsList
  readonly audit: typeof auditList
  readonly risk: typeof riskSummary
  readonly markets: typeof riskMarkets
  readonly market: typeof marketRecord
  readonly today: typeof todayRecord
  readonly site: typeof siteRecord
  readonly bonusRules: typeof bonusRulesRecord
  readonly depositAccounts: typeof depositAccountsRecord
  readonly protection: typeof protectionRecord
  readonly staff: typeof staffRecord
  readonly banners: typeof bannersRecord
  readonly casino: typeof casinoRecord
  readonly rounds: typeof roundsList
}

export type DeskFlowName = keyof DeskFlows
export type DeskFlowRef<K extends DeskFlowName> = ActorRefFrom<DeskFlows[K]>

const TOPICS: Readonly<Record<DeskFlowName, ReadonlyArray<DeskChanged["topic"]>>> = {
  deposits: ["deposits"],
  withdrawals: ["withdrawals"],
  sessions: [],
  signals: [],
  players: ["players"],
  player: ["players"],
  adjustments: ["approvals"],
  audit: ["audit"],
  risk: ["markets"],
  markets: ["markets"],
  market: ["markets"],
  today: ["deposits", "withdrawals", "approvals", "markets"],
  site: ["settings"],
  bonusRules: ["settings"],
  depositAccounts: ["settings"],
  protection: ["settings"],
  staff: ["settings"],
  banners: ["settings"],
  casino: [],
  rounds: []
}

export const topicsOf = (flow: DeskFlowName) => TOPICS[flow]
