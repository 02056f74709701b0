import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Reasons } from "./errors.ts"
import { Requires, StaffAuthentication } from "./middleware.ts"
import { AccountKind, BankAccountType, DepositRequest, PaymentAccount, RequestStatus, WithdrawalRequest } from "./payments.ts"
import { Rupees } from "./user.ts"

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

export const AdminListQuery = Schema.Struct({
  status: Schema.optionalKey(RequestStatus),
  start_date: Schema.optionalKey(Text(40)),
  end_date: Schema.optionalKey(Text(40))
})
export type AdminListQuery = typeof AdminListQuery.Type

/** A decision's remark (a rejection's reason, shown to the player); a withdrawal paid may carry the bank's reference. */
export const DecisionPayload = Schema.Struct({ remark: Schema.optionalKey(Text(200)), reference: Schema.optionalKey(Text(64)) })
export type DecisionPayload = typeof DecisionPayload.Type

/** An operator deposit account; a UPI account without `image` gets a generated QR. */
export const DepositAccountPayload = Schema.Struct({
  type: AccountKind,
  accountNumber: Text(64),
  accountHolderName: Text(80),
  bankName: Schema.optionalKey(Text(80)),
  ifscCode: Schema.optionalKey(Text(20)),
  accountType: Schema.optionalKey(BankAccountType),
  image: Schema.optionalKey(Text(2_000_000)),
  active: Schema.optionalKey(Schema.Boolean)
})
export type DepositAccountPayload = typeof DepositAccountPayload.Type

export const AdminDepositAccount = Schema.Struct({ ...PaymentAccount.fields, active: Schema.Boolean })
export type AdminDepositAccount = typeof AdminDepositAccount.Type

/** Credits a player's main wallet (demos, goodwill): by username or user id. */
export const CreditPayload = Schema.Struct({
  user: Text(64),
  amount: Rupees,
  note: Schema.optionalKey(Text(200))
})
export type CreditPayload = typeof CreditPayload.Type

export const CreditResult = Schema.Struct({ userId: Schema.String, transactionId: Schema.String, balance: Rupees })
export type CreditResult = typeof CreditResult.Type

const Id = { id: Schema.String }

/** A decision on a request: one wins; a request someone else claimed or decided is refused, naming them. */
const DECISION_REASONS = ["InvalidInput", "NotFound", "Conflict", "AlreadyDecided", "ClaimedByOther"] as const

/** The operator's API for scripts and the command line (the desk's own calls are in src/schema/desk/): staff desk sessions only. */
export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("deposits", "/deposit-requests", { query: AdminListQuery, success: Envelope(Schema.Array(DepositRequest)) })
      .annotate(Requires, "queues.read"),
    HttpApiEndpoint.put("approveDeposit", "/deposit-requests/:id/approve", { params: Id, payload: DecisionPayload, success: Envelope(DepositRequest) })
      .annotate(Requires, "deposits.decide").annotate(Reasons, DECISION_REASONS),
    HttpApiEndpoint.put("rejectDeposit", "/deposit-requests/:id/reject", { params: Id, payload: DecisionPayload, success: Envelope(DepositRequest) })
      .annotate(Requires, "deposits.decide").annotate(Reasons, DECISION_REASONS),
    HttpApiEndpoint.get("withdrawals", "/withdrawal-requests", { query: AdminListQuery, success: Envelope(Schema.Array(WithdrawalRequest)) })
      .annotate(Requires, "queues.read"),
    HttpApiEndpoint.put("approveWithdrawal", "/withdrawal-requests/:id/approve", { params: Id, payload: DecisionPayload, success: Envelope(WithdrawalRequest) })
      .annotate(Requires, "withdrawals.decide").annotate(Reasons, DECISION_REASONS),
    HttpApiEndpoint.put("rejectWithdrawal", "/withdrawal-requests/:id/reject", { params: Id, payload: DecisionPayload, success: Envelope(WithdrawalRequest) })
      .annotate(Requires, "withdrawals.decide").annotate(Reasons, DECISION_REASONS),
    HttpApiEndpoint.get("depositAccounts", "/deposit-accounts", { success: Envelope(Schema.Array(AdminDepositAccount)) })
      .annotate(Requires, "settings.manage"),
    HttpApiEndpoint.post("addDepositAccount", "/deposit-accounts", { payload: DepositAccountPayload, success: Envelope(AdminDepositAccount) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput", "Conflict"]),
    HttpApiEndpoint.put("updateDepositAccount", "/deposit-accounts/:id", { params: Id, payload: DepositAccountPayload, success: Envelope(AdminDepositAccount) })
      .annotate(Requires, "settings.manage").annotate(Reasons, ["InvalidInput", "NotFound", "Conflict"]),
    // Demo money: only on a server with demo data (SEED_DEMO); elsewhere money moves by a manual adjustment, with four eyes.
    HttpApiEndpoint.post("credit", "/credit", { payload: CreditPayload, success: Envelope(CreditResult) })
      .annotate(Requires, "money.adjust")
  )
  .middleware(StaffAuthentication)
  .prefix("/api/v1/admin")
{}
