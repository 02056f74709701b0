import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "../envelope.ts"
import { Reasons } from "../errors.ts"
import { Requires, StaffAuthentication } from "../middleware.ts"
import { AccountKind, PaymentAccount, RequestStatus, Screenshot } from "../payments.ts"
import { Rupees } from "../user.ts"
import { AuditEntry } from "./audit.ts"
import { Id, Instant, Page, PageQuery, Text } from "./common.ts"

/** Who a request belongs to, as the desk shows it. */
export const PlayerRef = Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String, mobileNo: Schema.String })
export type PlayerRef = typeof PlayerRef.Type

/** Who works a request now (their claim is live), or null. */
export const ClaimView = Schema.NullOr(Schema.Struct({ by: Schema.String, at: Instant, mine: Schema.Boolean }))

export const DeskDeposit = Schema.Struct({
  _id: Schema.String,
  amount: Rupees,
  type: AccountKind,
  txnRef: Schema.NullOr(Schema.String),
  /** The screenshot's id (GET /api/v1/desk/screenshots/:id), or null. */
  screenshot: Schema.NullOr(Schema.String),
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Instant,
  decidedAt: Schema.NullOr(Instant),
  decidedBy: Schema.NullOr(Schema.String),
  claim: ClaimView,
  player: PlayerRef,
  /** The deposit account the player says they paid into. */
  paidTo: Schema.Struct({ type: AccountKind, accountNumber: Schema.String, accountHolderName: Schema.String }),
  /** Other requests, by anyone, with the same reference (spaces and case ignored): a warning when above 0. */
  sameReference: Schema.Int
})
export type DeskDeposit = typeof DeskDeposit.Type

export const DeskWithdrawal = Schema.Struct({
  _id: Schema.String,
  amount: Rupees,
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Instant,
  decidedAt: Schema.NullOr(Instant),
  decidedBy: Schema.NullOr(Schema.String),
  /** The bank's reference of the payout, once paid. */
  payoutReference: Schema.NullOr(Schema.String),
  claim: ClaimView,
  player: PlayerRef,
  /** The payout account as it was when the request was made. */
  account: PaymentAccount
})
export type DeskWithdrawal = typeof DeskWithdrawal.Type

/** Which requests: a status (pending first-in first-out; the others newest first), days (India time), a player, amounts. */
export const QueueQuery = Schema.Struct({
  status: Schema.optionalKey(Schema.Literals(["pending", "approved", "rejected", "all"])),
  start_date: Schema.optionalKey(Text(40)),
  end_date: Schema.optionalKey(Text(40)),
  /** A username, name, mobile number or id. */
  player: Schema.optionalKey(Text(64)),
  min: Schema.optionalKey(Schema.NumberFromString.check(Schema.isFinite())),
  max: Schema.optionalKey(Schema.NumberFromString.check(Schema.isFinite())),
  ...PageQuery
})
export type QueueQuery = typeof QueueQuery.Type

/** A deposit with what the desk weighs it by: the player's last deposits, the requests with the same reference, its history. */
export const DepositDetail = Schema.Struct({
  deposit: DeskDeposit,
  recent: Schema.Array(DeskDeposit),
  sameReference: Schema.Array(DeskDeposit),
  history: Schema.Array(AuditEntry)
})
export type DepositDetail = typeof DepositDetail.Type

/** A withdrawal with what the player deposited and wagered since their last paid withdrawal. */
export const WithdrawalDetail = Schema.Struct({
  withdrawal: DeskWithdrawal,
  sinceLast: Schema.Struct({ since: Schema.NullOr(Instant), deposited: Rupees, wagered: Rupees }),
  recent: Schema.Array(DeskWithdrawal),
  history: Schema.Array(AuditEntry)
})
export type WithdrawalDetail = typeof WithdrawalDetail.Type

export const Claim = Schema.Struct({ id: Schema.String, claimedBy: Schema.String, claimedAt: Instant })
export type Claim = typeof Claim.Type

/** Claims: one staff member at a time; a decided request or another's live claim is refused, naming them. */
const CLAIM_REASONS = ["NotFound", "AlreadyDecided", "ClaimedByOther"] as const

/** The deposit and withdrawal queues. Decisions go through /api/v1/admin/…/approve and …/reject (src/schema/admin.ts). */
export class DeskQueuesApi extends HttpApiGroup.make("deskQueues")
  .add(
    HttpApiEndpoint.get("deposits", "/deposits", { query: QueueQuery, success: Envelope(Page(DeskDeposit)) }).annotate(Requires, "queues.read"),
    HttpApiEndpoint.get("deposit", "/deposits/:id", { params: Id, success: Envelope(DepositDetail) }).annotate(Requires, "queues.read"),
    HttpApiEndpoint.post("claimDeposit", "/deposits/:id/claim", { params: Id, success: Envelope(Claim) })
      .annotate(Requires, "deposits.decide").annotate(Reasons, CLAIM_REASONS),
    HttpApiEndpoint.delete("releaseDeposit", "/deposits/:id/claim", { params: Id, success: Envelope(Schema.Null) })
      .annotate(Requires, "deposits.decide").annotate(Reasons, ["NotFound"]),
    HttpApiEndpoint.get("withdrawals", "/withdrawals", { query: QueueQuery, success: Envelope(Page(DeskWithdrawal)) }).annotate(Requires, "queues.read"),
    HttpApiEndpoint.get("withdrawal", "/withdrawals/:id", { params: Id, success: Envelope(WithdrawalDetail) }).annotate(Requires, "queues.read"),
    HttpApiEndpoint.post("claimWithdrawal", "/withdrawals/:id/claim", { params: Id, success: Envelope(Claim) })
      .annotate(Requires, "withdrawals.decide").annotate(Reasons, CLAIM_REASONS),
    HttpApiEndpoint.delete("releaseWithdrawal", "/withdrawals/:id/claim", { params: Id, success: Envelope(Schema.Null) })
      .annotate(Requires, "withdrawals.decide").annotate(Reasons, ["NotFound"]),
    HttpApiEndpoint.get("screenshot", "/screenshots/:id", { params: Id, success: Envelope(Screenshot) }).annotate(Requires, "queues.read")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/desk")
{}
