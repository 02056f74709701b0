import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { CLOSED_TO_PLAY, Reasons } from "./errors.ts"
import { Authentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

export const AccountKind = Schema.Literals(["bank", "upi"])
export type AccountKind = typeof AccountKind.Type

export const BankAccountType = Schema.Literals(["savings", "current"])
export type BankAccountType = typeof BankAccountType.Type

/** A bank or UPI account; for type upi, `accountNumber` is the UPI id. `image` is the QR of a deposit account. */
export const PaymentAccount = Schema.Struct({
  _id: Schema.String,
  type: AccountKind,
  accountNumber: Schema.String,
  accountHolderName: Schema.String,
  bankName: Schema.optionalKey(Schema.String),
  ifscCode: Schema.optionalKey(Schema.String),
  accountType: Schema.optionalKey(BankAccountType),
  image: Schema.optionalKey(Schema.String)
})
export type PaymentAccount = typeof PaymentAccount.Type

/**
 * A screenshot travels as a data URL; 5 MB decoded is about 7 M base64
 * characters. The schema only stops absurd bodies: the upload service
 * measures the decoded size and says so.
 */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024
const DataUrl = Schema.String.check(Schema.isMaxLength(2 * SCREENSHOT_MAX_BYTES))

/** A deposit as the player submits it: `baseImage` (UPI modal) or `screenshot` (bank modal) is a data URL. */
export const DepositPayload = Schema.Struct({
  amount: Rupees,
  accountId: Schema.String.check(Schema.isMaxLength(64)),
  txnRef: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  type: AccountKind,
  baseImage: Schema.optionalKey(DataUrl),
  screenshot: Schema.optionalKey(DataUrl)
})
export type DepositPayload = typeof DepositPayload.Type

export const RequestStatus = Schema.Literals(["pending", "approved", "rejected"])
export type RequestStatus = typeof RequestStatus.Type

const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

/** Add a payout account: a UPI id with its holder, or a bank account with all five fields. */
export const AccountDetailsPayload = Schema.Struct({
  type: AccountKind,
  accountNumber: Text(64),
  accountHolderName: Text(80),
  bankName: Schema.optionalKey(Text(80)),
  ifscCode: Schema.optionalKey(Text(20)),
  accountType: Schema.optionalKey(BankAccountType)
})
export type AccountDetailsPayload = typeof AccountDetailsPayload.Type

/** Edit a payout account: the same fields plus which account. */
export const UpdateAccountDetailsPayload = Schema.Struct({ ...AccountDetailsPayload.fields, accountId: Text(64) })
export type UpdateAccountDetailsPayload = typeof UpdateAccountDetailsPayload.Type

/** Who a request belongs to, on the operator's lists. */
export const RequestOwner = Schema.Struct({ id: Schema.String, username: Schema.String, name: Schema.String })

export const DepositRequest = Schema.Struct({
  _id: Schema.String,
  amount: Rupees,
  accountId: Schema.String,
  type: AccountKind,
  txnRef: Schema.NullOr(Schema.String),
  /** Id of the stored screenshot, read with GET /uploaded-screenshot/:id. */
  screenshot: Schema.NullOr(Schema.String),
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  decidedAt: Schema.NullOr(Schema.String),
  user: Schema.optionalKey(RequestOwner)
})
export type DepositRequest = typeof DepositRequest.Type

export const WithdrawalPayload = Schema.Struct({ amount: Rupees, accountId: Text(64) })
export type WithdrawalPayload = typeof WithdrawalPayload.Type

export const WithdrawalRequest = Schema.Struct({
  _id: Schema.String,
  amount: Rupees,
  accountId: Schema.String,
  /** The payout account as it was when the request was made. */
  account: PaymentAccount,
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  decidedAt: Schema.NullOr(Schema.String),
  user: Schema.optionalKey(RequestOwner)
})
export type WithdrawalRequest = typeof WithdrawalRequest.Type

/** start_date and end_date: ISO instants, or calendar days (YYYY-MM-DD, India time, end day included). */
export const DateRangeQuery = Schema.Struct({
  start_date: Schema.optionalKey(Text(40)),
  end_date: Schema.optionalKey(Text(40))
})
export type DateRangeQuery = typeof DateRangeQuery.Type

export const Screenshot = Schema.Struct({ _id: Schema.String, image: Schema.String })
export type Screenshot = typeof Screenshot.Type

/** Deposits, withdrawals and payout accounts of the signed-in player (Authentication is added in api.ts). */
export class PaymentsApi extends HttpApiGroup.make("payments")
  .add(
    HttpApiEndpoint.get("adminAccountDetails", "/admin-account-details", { success: Envelope(Schema.Array(PaymentAccount)) }),
    HttpApiEndpoint.get("accountDetails", "/account-details", { success: Envelope(Schema.Array(PaymentAccount)) }),
    HttpApiEndpoint.post("addAccountDetails", "/account-details", { payload: AccountDetailsPayload, success: Envelope(PaymentAccount) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden", "Conflict"]),
    HttpApiEndpoint.put("updateAccountDetails", "/account-details", { payload: UpdateAccountDetailsPayload, success: Envelope(PaymentAccount) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden", "NotFound", "Conflict"]),
    HttpApiEndpoint.get("depositRequests", "/admin-deposit-request", { query: DateRangeQuery, success: Envelope(Schema.Array(DepositRequest)) }),
    HttpApiEndpoint.post("createDeposit", "/admin-deposit-request", { payload: DepositPayload, success: Envelope(DepositRequest) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden", "NotFound", "Conflict", "PayloadTooLarge", "QuotaExceeded", ...CLOSED_TO_PLAY, "DepositsClosed", "LimitReached", "ReferenceUsed"]),
    HttpApiEndpoint.get("withdrawalRequests", "/withdrawal-request", { query: DateRangeQuery, success: Envelope(Schema.Array(WithdrawalRequest)) }),
    HttpApiEndpoint.post("createWithdrawal", "/withdrawal-request", { payload: WithdrawalPayload, success: Envelope(WithdrawalRequest) })
      .annotate(Reasons, ["InvalidInput", "SessionEnded", "Forbidden", "NotFound", "Conflict", "InsufficientBalance"]),
    HttpApiEndpoint.get("screenshot", "/uploaded-screenshot/:id", { params: { id: Schema.String }, success: Envelope(Screenshot) })
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
