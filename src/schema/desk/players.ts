import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { CasinoBet } from "../casino.ts"
import { DepositRequest, PaymentAccount, WithdrawalRequest } from "../payments.ts"
import { Protection } from "../protection.ts"
import { StatementRow } from "../statements.ts"
import { Role, Rupees } from "../user.ts"
import { DecisionFields, Id, Instant, Page, PageQuery, Text } from "./common.ts"

export const PlayerStatus = Schema.Literals(["pending", "active", "suspended"])
export type PlayerStatus = typeof PlayerStatus.Type

/** A player as the search lists them. */
export const DeskPlayer = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  name: Schema.String,
  mobileNo: Schema.String,
  role: Role,
  status: PlayerStatus,
  createdAt: Instant,
  /** The main balance. */
  main: Rupees
})
export type DeskPlayer = typeof DeskPlayer.Type

/** Search: part of a name, a username, a mobile number (its last six digits or more) or an id; by username, a page at a time. */
export const PlayerQuery = Schema.Struct({
  q: Schema.optionalKey(Text(64)),
  status: Schema.optionalKey(PlayerStatus),
  ...PageQuery
})
export type PlayerQuery = typeof PlayerQuery.Type

/** A sports bet as the desk lists it. */
export const DeskBet = Schema.Struct({
  id: Schema.String,
  event: Schema.String,
  market: Schema.String,
  selection: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: Schema.Finite,
  stake: Rupees,
  /** Of the stake: what still waits unmatched, and what was cancelled (src/domain/matching.ts). */
  unmatched: Rupees,
  cancelled: Rupees,
  liability: Rupees,
  status: Schema.Literals(["open", "won", "lost", "void", "cancelled"]),
  profitLoss: Schema.NullOr(Rupees),
  createdAt: Instant
})
export type DeskBet = typeof DeskBet.Type

/** One of the player's sessions on the site that has not ended. */
export const PlayerSession = Schema.Struct({
  id: Schema.String,
  createdAt: Instant,
  lastSeenAt: Instant,
  ip: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String)
})
export type PlayerSession = typeof PlayerSession.Type

export const PlayerNote = Schema.Struct({ id: Schema.String, author: Schema.String, body: Schema.String, at: Instant })
export type PlayerNote = typeof PlayerNote.Type

/**
 * A player's page: who, balances, the last 30 days of their statement, open
 * and the last settled bets, their requests, payout accounts, protection
 * (read-only: staff never lift a time-out or self-exclusion), live sessions
 * and staff notes, newest first.
 */
export const PlayerDetail = Schema.Struct({
  player: DeskPlayer,
  balances: Schema.Struct({ main: Rupees, bonus: Rupees, exposure: Rupees, withdrawalHold: Rupees }),
  statement: Schema.Array(StatementRow),
  openBets: Schema.Array(DeskBet),
  settledBets: Schema.Array(DeskBet),
  deposits: Schema.Array(DepositRequest),
  withdrawals: Schema.Array(WithdrawalRequest),
  accounts: Schema.Array(PaymentAccount),
  protection: Protection,
  sessions: Schema.Array(PlayerSession),
  notes: Schema.Array(PlayerNote)
})
export type PlayerDetail = typeof PlayerDetail.Type

export const NotePayload = Schema.Struct({ body: Text(2000) })
export type NotePayload = typeof NotePayload.Type

/** Suspend (the player's sessions end, they cannot sign in) or reactivate, with the reason. */
export const PlayerStatusPayload = Schema.Struct({ status: Schema.Literals(["active", "suspended"]), reason: Text(200) })
export type PlayerStatusPayload = typeof PlayerStatusPayload.Type

/** A manual adjustment of the main balance: credit or debit, in rupees, with the reason the statement shows. */
export const AdjustmentPayload = Schema.Struct({ direction: Schema.Literals(["credit", "debit"]), amount: Rupees, reason: Text(200) })
export type AdjustmentPayload = typeof AdjustmentPayload.Type

/**
 * A manual adjustment above the DIRECTOR's threshold, waiting for a second
 * staff member (four eyes): a different ADMIN or DIRECTOR approves it (then
 * the ledger transaction runs) or declines it; the one who asked may withdraw it.
 */
export const AdjustmentApproval = Schema.Struct({
  _id: Schema.String,
  player: Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String }),
  direction: Schema.Literals(["credit", "debit"]),
  amount: Rupees,
  reason: Schema.String,
  ...DecisionFields
})
export type AdjustmentApproval = typeof AdjustmentApproval.Type

/** What an adjustment did: posted (its transaction, the main balance after), or waiting for a second approver (`approval`). */
export const AdjustmentResult = Schema.Struct({ transactionId: Schema.NullOr(Schema.String), main: Rupees, approval: Schema.NullOr(AdjustmentApproval) })
export type AdjustmentResult = typeof AdjustmentResult.Type

/** The adjustments waiting for a second approver, oldest first; of one player when `player` is given. */
export const AdjustmentQuery = Schema.Struct({ player: Schema.optionalKey(Text(64)), ...PageQuery })
export type AdjustmentQuery = typeof AdjustmentQuery.Type

export const AdjustmentDecision = Schema.Struct({ remark: Schema.optionalKey(Text(200)) })

/** A player's casino rounds of one day in India (YYYY-MM-DD; today when left out), newest first. */
export const CasinoRoundsQuery = Schema.Struct({ date: Schema.optionalKey(Text(10)) })

const APPROVAL_REASONS = ["InvalidInput", "NotFound", "Conflict", "InsufficientBalance", "AlreadyDecided", "OwnProposal"] as const

/** Players: search, a player's page, their casino rounds, notes, suspension, sessions, manual adjustments (four eyes above the threshold). */
export class DeskPlayersApi extends HttpApiGroup.make("deskPlayers")
  .add(
    HttpApiEndpoint.get("search", "/players", { query: PlayerQuery, success: Envelope(Page(DeskPlayer)) }).annotate(Requires, "players.read"),
    HttpApiEndpoint.get("player", "/players/:id", { params: Id, success: Envelope(PlayerDetail) }).annotate(Requires, "players.read").annotate(Reasons, ["NotFound"]),
    HttpApiEndpoint.post("note", "/players/:id/notes", { params: Id, payload: NotePayload, success: Envelope(PlayerNote) })
      .annotate(Requires, "players.note").annotate(Reasons, ["InvalidInput", "NotFound"]),
    HttpApiEndpoint.put("status", "/players/:id/status", { params: Id, payload: PlayerStatusPayload, success: Envelope(DeskPlayer) })
      .annotate(Requires, "players.suspend").annotate(Reasons, ["InvalidInput", "NotFound", "Conflict"]),
    HttpApiEndpoint.delete("endSessions", "/players/:id/sessions", { params: Id, success: Envelope(Schema.Struct({ ended: Schema.Int })) })
      .annotate(Requires, "players.suspend").annotate(Reasons, ["NotFound"]),
    HttpApiEndpoint.post("adjust", "/players/:id/adjustments", { params: Id, payload: AdjustmentPayload, success: Envelope(AdjustmentResult) })
      .annotate(Requires, "money.adjust").annotate(Reasons, ["InvalidInput", "NotFound", "InsufficientBalance", "Conflict"]),
    HttpApiEndpoint.get("casinoRounds", "/players/:id/casino-rounds", { params: Id, query: CasinoRoundsQuery, success: Envelope(Schema.Array(CasinoBet)) })
      .annotate(Requires, "players.read").annotate(Reasons, ["InvalidInput", "NotFound"]),
    HttpApiEndpoint.get("adjustments", "/adjustment-approvals", { query: AdjustmentQuery, success: Envelope(Page(AdjustmentApproval)) })
      .annotate(Requires, "money.adjust").annotate(Reasons, ["InvalidInput"]),
    HttpApiEndpoint.post("approveAdjustment", "/adjustment-approvals/:id/approve", { params: Id, payload: AdjustmentDecision, success: Envelope(AdjustmentResult) })
      .annotate(Requires, "money.adjust").annotate(Reasons, APPROVAL_REASONS),
    HttpApiEndpoint.post("declineAdjustment", "/adjustment-approvals/:id/decline", { params: Id, payload: AdjustmentDecision, success: Envelope(AdjustmentResult) })
      .annotate(Requires, "money.adjust").annotate(Reasons, APPROVAL_REASONS)
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
