import { Schema } from "effect"
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

/** A deposit as the player submits it; the screenshot is a data URL. */
export const DepositPayload = Schema.Struct({
  amount: Rupees,
  accountId: Schema.String,
  txnRef: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  type: AccountKind,
  baseImage: Schema.optionalKey(Schema.String),
  screenshot: Schema.optionalKey(Schema.String)
})
export type DepositPayload = typeof DepositPayload.Type

export const RequestStatus = Schema.Literals(["pending", "approved", "rejected"])
export type RequestStatus = typeof RequestStatus.Type
