/** The rows, views and input rules that payments' accounts, deposits and withdrawals share. */
import { Effect, Schema } from "effect"
import type { SqlError } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import { PAYMENT_MESSAGES, validateAccount } from "../../src/domain/payments.ts"
import { cleanName } from "../../src/domain/text.ts"
import type { DepositAccountPayload } from "../../src/schema/admin.ts"
import { refuse } from "../../src/schema/envelope.ts"
import {
  type AccountDetailsPayload,
  AccountKind,
  BankAccountType,
  type DepositRequest,
  type PaymentAccount,
  RequestStatus,
  type WithdrawalRequest
} from "../../src/schema/payments.ts"
import { iso, Paise } from "../db/rows.ts"

export const AccountRow = Schema.Struct({
  id: Schema.String,
  type: AccountKind,
  accountNumber: Schema.String,
  accountHolderName: Schema.String,
  bankName: Schema.NullOr(Schema.String),
  ifscCode: Schema.NullOr(Schema.String),
  accountType: Schema.NullOr(BankAccountType),
  image: Schema.optional(Schema.NullOr(Schema.String)),
  active: Schema.optional(Schema.Boolean),
  /** A player's account: what makes it the same account whoever adds it (migration 0122). */
  payoutKey: Schema.optional(Schema.String)
})
export type AccountRow = typeof AccountRow.Type

export const accountView = (row: AccountRow): PaymentAccount => ({
  _id: row.id,
  type: row.type,
  accountNumber: row.accountNumber,
  accountHolderName: row.accountHolderName,
  ...(row.bankName ? { bankName: row.bankName } : {}),
  ...(row.ifscCode ? { ifscCode: row.ifscCode } : {}),
  ...(row.accountType ? { accountType: row.accountType } : {}),
  ...(row.image ? { image: row.image } : {})
})

export const DepositRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  accountId: Schema.String,
  type: AccountKind,
  amount: Paise,
  txnRef: Schema.NullOr(Schema.String),
  screenshotId: Schema.NullOr(Schema.String),
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  username: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
})
export type DepositRow = typeof DepositRow.Type

export const WithdrawalRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  accountId: Schema.String,
  // The payout account as it was when the request was made (jsonb).
  account: AccountRow,
  amount: Paise,
  status: RequestStatus,
  remark: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  decidedAt: Schema.NullOr(Schema.Date),
  username: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String)
})
export type WithdrawalRow = typeof WithdrawalRow.Type


/** Operators' lists say whose request it is; a player's own list does not need to. */
const owner = (row: { userId: string; username?: string; name?: string }, withOwner: boolean) =>
  withOwner && row.username !== undefined ? { user: { id: row.userId, username: row.username, name: row.name ?? "" } } : {}

export const depositView = (row: DepositRow, withOwner = false): DepositRequest => ({
  _id: row.id,
  amount: toRupees(row.amount),
  accountId: row.accountId,
  type: row.type,
  txnRef: row.txnRef,
  screenshot: row.screenshotId,
  status: row.status,
  remark: row.remark,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
  ...owner(row, withOwner)
})

export const withdrawalView = (row: WithdrawalRow, withOwner = false): WithdrawalRequest => ({
  _id: row.id,
  amount: toRupees(row.amount),
  accountId: row.accountId,
  account: accountView(row.account),
  status: row.status,
  remark: row.remark,
  createdAt: row.createdAt.toISOString(),
  decidedAt: iso(row.decidedAt),
  ...owner(row, withOwner)
})

export interface ListFilter {
  readonly from: Date
  readonly to: Date
  readonly status?: RequestStatus | undefined
  readonly userId?: string | undefined
}

/** The account fields as stored: trimmed, IFSC upper-case, bank fields only for banks. */
export const normalizeAccount = (given: AccountDetailsPayload | DepositAccountPayload) => {
  // Names reach the operator's payout list: no bidirectional or other control characters in them.
  const input = { ...given, accountHolderName: cleanName(given.accountHolderName), ...(given.bankName !== undefined ? { bankName: cleanName(given.bankName) } : {}) }
  // Savings unless the player picked current (SPEC section 5).
  const problem = validateAccount(input.type === "bank" ? { ...input, accountType: input.accountType ?? "savings" } : input)
  if (problem) return refuse("InvalidInput", problem)
  const bank = input.type === "bank"
  return Effect.succeed({
    type: input.type,
    accountNumber: input.type === "upi" ? input.accountNumber.trim().toLowerCase() : input.accountNumber.trim(),
    accountHolderName: input.accountHolderName,
    bankName: bank ? input.bankName! : null,
    ifscCode: bank ? input.ifscCode!.trim().toUpperCase() : null,
    accountType: bank ? input.accountType ?? "savings" : null
  })
}

export const amountPaise = (rupees: number) => {
  const paise = toPaise(rupees)
  if (paise === undefined || paise <= 0) return refuse("InvalidInput", PAYMENT_MESSAGES.enterAmount)
  return Effect.succeed(paise)
}

export const isUniqueViolation = (error: SqlError.SqlError) => (error.reason as { cause?: { code?: string } }).cause?.code === "23505"
