import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { weeksBetween } from "../../src/domain/ranges.ts"
import { type ApiError, unprocessable } from "../../src/schema/envelope.ts"
import type { ReferralTransaction, ReferralUsers, ReferralWeek } from "../../src/schema/referral.ts"
import { Roles } from "../../src/schema/user.ts"
import { Ledger } from "../ledger/Ledger.ts"

/** A referrer earns 10 % of a referred player's first approved deposit, up to ₹1,000, in their referral wallet. */
export const REFERRAL_REWARD = { percent: 10, capPaise: 1_000_00 } as const

export const referralReward = (depositPaise: number) =>
  Math.min(Math.floor((depositPaise * REFERRAL_REWARD.percent) / 100), REFERRAL_REWARD.capPaise)

/** "Ravi Kumar" -> "Ravi K.": the referrer sees who joined, not their full name or phone. */
const maskName = (name: string) => {
  const [first = "", ...rest] = name.trim().split(/\s+/)
  return rest.length > 0 ? `${first} ${rest.at(-1)![0]!.toUpperCase()}.` : first
}

/**
 * Referrals: players who signed up with a referral code (users.referred_by).
 * The reward is paid once per referred player (the referral_rewards primary
 * key), inside the transaction that approves their first deposit, from the
 * operator's referral_expense account into the referrer's ref_bonus wallet;
 * claiming moves the ref_bonus wallet to main.
 */
export class Referral extends Context.Service<Referral, {
  /** Called when `userId`'s deposit is approved, in the approval's transaction. */
  onDepositApproved(userId: string, depositId: string, amountPaise: number): Effect.Effect<void, SqlError.SqlError>
  users(userId: string): Effect.Effect<ReferralUsers, SqlError.SqlError>
  transactions(userId: string): Effect.Effect<ReadonlyArray<ReferralTransaction>, SqlError.SqlError>
  weekly(userId: string, from: Date, to: Date): Effect.Effect<ReadonlyArray<ReferralWeek>, SqlError.SqlError>
  claim(userId: string): Effect.Effect<ReferralUsers, ApiError | SqlError.SqlError>
}>()("khel/Referral") {
  static readonly layer = Layer.effect(
    Referral,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger

      const onDepositApproved = Effect.fn("Referral.onDepositApproved")(function*(userId: string, depositId: string, amountPaise: number) {
        const [row] = yield* sql<{ referrerId: string; referrerRole: number; rewarded: boolean }>`
          SELECT r.id AS referrer_id, r.role AS referrer_role,
                 EXISTS (SELECT 1 FROM referral_rewards WHERE referred_user_id = u.id) AS rewarded
            FROM users u JOIN users r ON r.id = u.referred_by
           WHERE u.id = ${userId}
        `
        // Credit players have no referral wallet.
        if (!row || row.rewarded || row.referrerRole !== Roles.PLAYER) return
        const amount = referralReward(amountPaise)
        if (amount <= 0) return
        const transactionId = yield* ledger.post({
          kind: "referral_reward",
          userId: row.referrerId,
          reference: `referral:${userId}`,
          description: "Referral reward: a friend's first deposit",
          legs: [
            { account: { operator: "referral_expense" }, amount: -amount },
            { account: { user: row.referrerId, kind: "ref_bonus" }, amount }
          ]
        }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
        yield* sql`
          INSERT INTO referral_rewards (referred_user_id, referrer_id, deposit_id, amount, ledger_transaction_id)
          VALUES (${userId}, ${row.referrerId}, ${depositId}, ${amount}, ${transactionId})
        `
      })

      const users = Effect.fn("Referral.users")(function*(userId: string) {
        const [me] = yield* sql<{ referralCode: string }>`SELECT referral_code FROM users WHERE id = ${userId}`
        const rows = yield* sql<{ id: string; name: string; username: string; createdAt: Date; amount: bigint | null; rewardedAt: Date | null }>`
          SELECT u.id, u.name, u.username, u.created_at, rr.amount, rr.created_at AS rewarded_at
            FROM users u LEFT JOIN referral_rewards rr ON rr.referred_user_id = u.id
           WHERE u.referred_by = ${userId} AND u.status = 'active'
           ORDER BY u.created_at DESC
        `
        const balances = yield* ledger.balances(userId)
        return {
          referralCode: me?.referralCode ?? "",
          refBonus: toRupees(balances.refBonus),
          users: rows.map((row) => ({
            _id: row.id,
            name: maskName(row.name),
            username: row.username,
            joinedAt: new Date(row.createdAt).toISOString(),
            reward: toRupees(row.amount ?? 0n),
            rewardedAt: row.rewardedAt === null ? null : new Date(row.rewardedAt).toISOString()
          }))
        } satisfies ReferralUsers
      })

      const transactions = Effect.fn("Referral.transactions")(function*(userId: string) {
        const rows = yield* sql<{ id: string; kind: "referral_reward" | "referral_claim"; description: string; amount: bigint; createdAt: Date }>`
          SELECT t.id, t.kind, t.description, e.amount, t.created_at
            FROM ledger_transactions t
            JOIN ledger_entries e ON e.transaction_id = t.id
            JOIN ledger_accounts a ON a.id = e.account_id AND a.user_id = ${userId} AND a.kind = 'ref_bonus'
           WHERE t.kind IN ('referral_reward', 'referral_claim')
           ORDER BY e.id DESC
           LIMIT 500
        `
        return rows.map((row) => ({
          _id: row.id,
          kind: row.kind,
          description: row.description,
          amount: toRupees(row.amount),
          createdAt: new Date(row.createdAt).toISOString()
        }))
      })

      const weekly = Effect.fn("Referral.weekly")(function*(userId: string, from: Date, to: Date) {
        const weeks = weeksBetween(from, to)
        if (weeks.length === 0) return []
        const rows = yield* sql<{ amount: bigint; createdAt: Date }>`
          SELECT amount, created_at FROM referral_rewards
           WHERE referrer_id = ${userId} AND created_at >= ${weeks[0]!.from} AND created_at <= ${weeks.at(-1)!.to}
        `
        return weeks.map((week) => {
          const inWeek = rows.filter((row) => new Date(row.createdAt) >= week.from && new Date(row.createdAt) <= week.to)
          return {
            startDate: week.from.toISOString(),
            endDate: week.to.toISOString(),
            rewards: inWeek.length,
            amount: toRupees(inWeek.reduce((sum, row) => sum + row.amount, 0n))
          }
        }).reverse()
      })

      const claim = Effect.fn("Referral.claim")(function*(userId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          // Lock the wallet so two claims cannot both read the same balance.
          const [wallet] = yield* sql<{ balance: bigint }>`
            SELECT balance FROM ledger_accounts WHERE user_id = ${userId} AND kind = 'ref_bonus' FOR UPDATE
          `
          const amount = Number(wallet?.balance ?? 0n)
          if (amount <= 0) return yield* unprocessable("There is no referral bonus to claim yet.")
          yield* ledger.post({
            kind: "referral_claim",
            userId,
            description: "Referral bonus claimed to main balance",
            legs: [
              { account: { user: userId, kind: "ref_bonus" }, amount: -amount },
              { account: { user: userId, kind: "main" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", () => unprocessable("There is no referral bonus to claim yet.")))
        }))
        return yield* users(userId)
      })

      return Referral.of({ onDepositApproved, users, transactions, weekly, claim })
    })
  )
}
