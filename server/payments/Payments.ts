import { Context, Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
import type { DepositAccountPayload } from "../../src/schema/admin.ts"
import type { ApiError } from "../../src/schema/envelope.ts"
import type {
  AccountDetailsPayload,
  DepositPayload,
  DepositRequest,
  PaymentAccount,
  UpdateAccountDetailsPayload,
  WithdrawalPayload,
  WithdrawalRequest
} from "../../src/schema/payments.ts"
import { makeAccounts } from "./accounts.ts"
import { makeDeposits } from "./deposits.ts"
import type { ListFilter } from "./shapes.ts"
import { makeWithdrawals } from "./withdrawals.ts"

export { accountView, depositView, type ListFilter, withdrawalView } from "./shapes.ts"

/**
 * Deposits, withdrawals and the accounts they use. Requests are rows; money
 * moves only through the ledger, in the same database transaction as the
 * request's change of status. A status change is a conditional update
 * (`WHERE status = 'pending'`), so of two approvals of one request, sent
 * twice or at once, exactly one moves money and the other gets 409. Its
 * three parts: accounts.ts, deposits.ts and withdrawals.ts.
 */
export class Payments extends Context.Service<Payments, {
  depositAccounts(options?: { includeInactive?: boolean }): Effect.Effect<ReadonlyArray<PaymentAccount & { active: boolean }>, SqlError.SqlError>
  addDepositAccount(input: DepositAccountPayload): Effect.Effect<PaymentAccount & { active: boolean }, ApiError | SqlError.SqlError>
  updateDepositAccount(id: string, input: DepositAccountPayload): Effect.Effect<PaymentAccount & { active: boolean }, ApiError | SqlError.SqlError>

  accounts(userId: string): Effect.Effect<ReadonlyArray<PaymentAccount>, SqlError.SqlError>
  addAccount(userId: string, input: AccountDetailsPayload): Effect.Effect<PaymentAccount, ApiError | SqlError.SqlError>
  updateAccount(userId: string, input: UpdateAccountDetailsPayload): Effect.Effect<PaymentAccount, ApiError | SqlError.SqlError>

  deposits(filter: ListFilter): Effect.Effect<ReadonlyArray<DepositRequest>, SqlError.SqlError>
  createDeposit(userId: string, input: DepositPayload): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>
  /** After a deposit was refused as `ReferenceUsed` (and its transaction rolled back): the integrity signal of who tried. */
  signalReusedReference(userId: string, input: DepositPayload): Effect.Effect<void, SqlError.SqlError>
  approveDeposit(id: string, operatorId: string, remark?: string): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>
  rejectDeposit(id: string, operatorId: string, remark?: string): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>

  withdrawals(filter: ListFilter): Effect.Effect<ReadonlyArray<WithdrawalRequest>, SqlError.SqlError>
  createWithdrawal(userId: string, input: WithdrawalPayload): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>
  approveWithdrawal(id: string, operatorId: string, remark?: string): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>
  rejectWithdrawal(id: string, operatorId: string, remark?: string): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>

  /** Credits a player's main balance from the operator (demos, goodwill); returns the ledger transaction. */
  credit(userId: string, amountPaise: number, note: string, operatorId: string): Effect.Effect<string, ApiError | SqlError.SqlError>
}>()("khel/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function*() {
      return Payments.of({ ...(yield* makeAccounts), ...(yield* makeDeposits), ...(yield* makeWithdrawals) })
    })
  )
}
