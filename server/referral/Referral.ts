import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { weeksBetween } from "../../src/domain/ranges.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { ReferralTransaction, ReferralUsers, ReferralWeek } from "../../src/schema/referral.ts"
import { Roles } from "../../src/schema/user.ts"
import { isPublicAddress } from "../edge/client.ts"
import { decodeFirst, decodeRows, Paise } from "../db/rows.ts"
import { Signals } from "../integrity/Signals.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { readBonusRules } from "../bonus/rules.ts"
import { referralGrant } from "../../src/domain/bonusRules.ts"

/** "Ravi Kumar" -> "Ravi K.": the referrer sees who joined, not their full name or phone. */
const maskName = (name: string) => {
  const [first = "", ...rest] = name.trim().split(/\s+/)
  return rest.length > 0 ? `${first} ${rest.at(-1)![0]!.toUpperCase()}.` : first
}

const Qualification = Schema.Struct({ referrerId: Schema.String, depositId: Schema.String, reward: Paise, wagered: Paise, wageringRequired: Paise })

const Shared = Schema.Struct({ kind: Schema.Literals(["shared_device", "shared_address", "shared_payout_account"]), subject: Schema.String })
/** Who referred a player who just deposited, and whether they were rewarded already. */
const Referrer = Schema.Struct({ referrerId: Schema.String, referrerRole: Schema.Int, rewarded: Schema.Boolean })
const ReferredUser = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  username: Schema.String,
  createdAt: Schema.Date,
  amount: Schema.NullOr(Paise),
  rewardedAt: Schema.NullOr(Schema.Date),
  qualification: Schema.NullOr(Schema.String)
})
const WalletLine = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["referral_reward", "referral_claim"]),
  description: Schema.String,
  amount: Paise,
  createdAt: Schema.Date
})
const Reward = Schema.Struct({ amount: Paise, createdAt: Schema.Date })
const Balance = Schema.Struct({ balance: Paise })

const SHARED_WHAT = { shared_device: "a device", shared_address: "an address", shared_payout_account: "a payout account" } as const

/**
 * Referrals: players who signed up with a referral code (users.referred_by).
 * A referred player's first approved deposit sets the reward and the play it
 * waits for (referral_qualifications, migration 0124): their own wagering on
 * settled markets, which settlement counts (`recordPlay`, main-wallet bets,
 * as bonus wagering counts). Met, the reward is paid once per referred player
 * (the referral_rewards primary key) from the operator's referral_expense
 * account into the referrer's ref_bonus wallet — unless the two share a
 * device, an address (a public one: a proxy's is everyone's) or a payout
 * account: then it is withheld and each thing shared is an integrity signal.
 * Claiming moves the ref_bonus wallet to main.
 */
export class Referral extends Context.Service<Referral, {
  /** Called when `userId`'s deposit is approved, in the approval's transaction. */
  onDepositApproved(userId: string, depositId: string, amountPaise: number): Effect.Effect<void, SqlError.SqlError>
  /** The player's own play on settled markets (paise), counted by settlement in its transaction. */
  recordPlay(userId: string, paise: number): Effect.Effect<void, SqlError.SqlError>
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
      const signals = yield* Signals
      const rules = readBonusRules.pipe(Effect.provideService(SqlClient.SqlClient, sql))

      const onDepositApproved = Effect.fn("Referral.onDepositApproved")(function*(userId: string, depositId: string, amountPaise: number) {
        const row = yield* sql`
          SELECT r.id AS referrer_id, r.role AS referrer_role,
                 EXISTS (SELECT 1 FROM referral_rewards WHERE referred_user_id = u.id) AS rewarded
            FROM users u JOIN users r ON r.id = u.referred_by
           WHERE u.id = ${userId}
        `.pipe(decodeFirst(Referrer))
        // Credit players have no referral wallet.
        if (!row || row.rewarded || row.referrerRole !== Roles.PLAYER) return
        // By the rules set now (src/domain/bonusRules.ts): a later change leaves this reward as it is.
        const { rewardPaise: amount, wageringPaise } = referralGrant((yield* rules).referral, amountPaise)
        if (amount <= 0) return
        yield* sql`
          INSERT INTO referral_qualifications (referred_user_id, referrer_id, deposit_id, reward, wagering_required)
          VALUES (${userId}, ${row.referrerId}, ${depositId}, ${amount}, ${wageringPaise})
          ON CONFLICT (referred_user_id) DO NOTHING
        `
      })

      /** What the referred player shares with their referrer: devices, public addresses, payout accounts (as held, paid to, or tried). */
      const sharedWith = (referred: string, referrer: string) =>
        Effect.map(
          sql`
            SELECT DISTINCT 'shared_device' AS kind, a.device AS subject
              FROM sessions a JOIN sessions b ON b.device = a.device AND b.user_id = ${referrer}
             WHERE a.user_id = ${referred} AND a.device IS NOT NULL
            UNION
            SELECT DISTINCT 'shared_address', a.ip
              FROM sessions a JOIN sessions b ON b.ip = a.ip AND b.user_id = ${referrer}
             WHERE a.user_id = ${referred} AND a.ip IS NOT NULL
            UNION
            SELECT DISTINCT 'shared_payout_account', held.key FROM (
              SELECT payout_key AS key FROM payment_accounts WHERE user_id = ${referred}
              UNION
              SELECT payout_key(account->>'type', account->>'accountNumber', account->>'ifscCode') FROM withdrawal_requests WHERE user_id = ${referred}
            ) held
             WHERE EXISTS (SELECT 1 FROM payment_accounts b WHERE b.payout_key = held.key AND b.user_id = ${referrer})
                OR EXISTS (SELECT 1 FROM payout_account_owners o WHERE o.key = held.key AND o.user_id = ${referrer})
            UNION
            SELECT DISTINCT 'shared_payout_account', s.subject
              FROM integrity_signals s
              JOIN integrity_signal_players p ON p.signal_id = s.id AND p.user_id = ${referred}
              JOIN integrity_signal_players q ON q.signal_id = s.id AND q.user_id = ${referrer}
             WHERE s.kind = 'shared_payout_account'
          `.pipe(decodeRows(Shared)),
          (rows) => rows.filter((row) => row.kind !== "shared_address" || isPublicAddress(row.subject))
        )

      const pay = (referred: string, row: typeof Qualification.Type) =>
        Effect.gen(function*() {
          const amount = Number(row.reward)
          const transactionId = yield* ledger.post({
            kind: "referral_reward",
            userId: row.referrerId,
            reference: `referral:${referred}`,
            description: "Referral reward: a friend's first deposit, played",
            legs: [
              { account: { operator: "referral_expense" }, amount: -amount },
              { account: { user: row.referrerId, kind: "ref_bonus" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
          yield* sql`
            INSERT INTO referral_rewards (referred_user_id, referrer_id, deposit_id, amount, ledger_transaction_id)
            VALUES (${referred}, ${row.referrerId}, ${row.depositId}, ${amount}, ${transactionId})
          `
        })

      const recordPlay = Effect.fn("Referral.recordPlay")(function*(userId: string, paise: number) {
        if (!Number.isSafeInteger(paise) || paise <= 0) return
        // The row stays locked to the end of the settlement: of two settlements at once, one decides.
        const row = yield* sql`
          UPDATE referral_qualifications SET wagered = wagered + ${paise}
           WHERE referred_user_id = ${userId} AND status = 'waiting'
          RETURNING referrer_id, deposit_id, reward, wagered, wagering_required
        `.pipe(decodeFirst(Qualification))
        if (!row || row.wagered < row.wageringRequired) return
        const shared = yield* sharedWith(userId, row.referrerId)
        yield* sql`
          UPDATE referral_qualifications SET status = ${shared.length > 0 ? "withheld" : "paid"}, decided_at = now()
           WHERE referred_user_id = ${userId}
        `
        if (shared.length === 0) return yield* pay(userId, row)
        for (const { kind, subject } of shared) {
          yield* signals.record({
            kind,
            userIds: [userId, row.referrerId],
            subject,
            detail: `A referred player shares ${SHARED_WHAT[kind]} with their referrer: the referral reward of ₹${toRupees(row.reward).toFixed(2)} was withheld`,
            context: { referredUserId: userId, referrerId: row.referrerId, depositId: row.depositId }
          })
        }
      })

      const users = Effect.fn("Referral.users")(function*(userId: string) {
        // Straight back out as text.
        const [me] = yield* sql<{ referralCode: string }>`SELECT referral_code FROM users WHERE id = ${userId}`
        const rows = yield* sql`
          SELECT u.id, u.name, u.username, u.created_at, rr.amount, rr.created_at AS rewarded_at, q.status AS qualification
            FROM users u
            LEFT JOIN referral_rewards rr ON rr.referred_user_id = u.id
            LEFT JOIN referral_qualifications q ON q.referred_user_id = u.id
           WHERE u.referred_by = ${userId} AND u.status = 'active'
           ORDER BY u.created_at DESC
        `.pipe(decodeRows(ReferredUser))
        const balances = yield* ledger.balances(userId)
        const { referral: rule } = yield* rules
        return {
          referralCode: me?.referralCode ?? "",
          refBonus: toRupees(balances.refBonus),
          users: rows.map((row) => ({
            _id: row.id,
            name: maskName(row.name),
            username: row.username,
            joinedAt: row.createdAt.toISOString(),
            reward: toRupees(row.amount ?? 0n),
            rewardedAt: row.rewardedAt === null ? null : row.rewardedAt.toISOString(),
            status: row.amount !== null ? "rewarded" as const
              : row.qualification === "withheld" ? "withheld" as const
              : row.qualification === "waiting" ? "awaitingPlay" as const
              : "awaitingDeposit" as const
          })),
          rule
        } satisfies ReferralUsers
      })

      const transactions = Effect.fn("Referral.transactions")(function*(userId: string) {
        const rows = yield* sql`
          SELECT t.id, t.kind, t.description, e.amount, t.created_at
            FROM ledger_transactions t
            JOIN ledger_entries e ON e.transaction_id = t.id
            JOIN ledger_accounts a ON a.id = e.account_id AND a.user_id = ${userId} AND a.kind = 'ref_bonus'
           WHERE t.kind IN ('referral_reward', 'referral_claim')
           ORDER BY e.id DESC
           LIMIT 500
        `.pipe(decodeRows(WalletLine))
        return rows.map((row) => ({
          _id: row.id,
          kind: row.kind,
          description: row.description,
          amount: toRupees(row.amount),
          createdAt: row.createdAt.toISOString()
        }))
      })

      const weekly = Effect.fn("Referral.weekly")(function*(userId: string, from: Date, to: Date) {
        const weeks = weeksBetween(from, to)
        if (weeks.length === 0) return []
        const rows = yield* sql`
          SELECT amount, created_at FROM referral_rewards
           WHERE referrer_id = ${userId} AND created_at >= ${weeks[0]!.from} AND created_at <= ${weeks.at(-1)!.to}
        `.pipe(decodeRows(Reward))
        return weeks.map((week) => {
          const inWeek = rows.filter((row) => row.createdAt >= week.from && row.createdAt <= week.to)
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
          const wallet = yield* sql`
            SELECT balance FROM ledger_accounts WHERE user_id = ${userId} AND kind = 'ref_bonus' FOR UPDATE
          `.pipe(decodeFirst(Balance))
          const amount = Number(wallet?.balance ?? 0n)
          if (amount <= 0) return yield* refuse("Refused", "There is no referral bonus to claim yet.")
          yield* ledger.post({
            kind: "referral_claim",
            userId,
            description: "Referral bonus claimed to main balance",
            legs: [
              { account: { user: userId, kind: "ref_bonus" }, amount: -amount },
              { account: { user: userId, kind: "main" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", () => refuse("Refused", "There is no referral bonus to claim yet.")))
        }))
        return yield* users(userId)
      })

      return Referral.of({ onDepositApproved, recordPlay, users, transactions, weekly, claim })
    })
  )
}
