import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Realtime } from "../realtime/Realtime.ts"

/** A player's accounts. `exposure` and `bonus_exposure` hold the liability of open bets. */
export type PlayerAccount = "main" | "bonus" | "exposure" | "bonus_exposure" | "withdrawal_hold" | "ref_bonus"

/**
 * The operator's accounts. They mirror money outside the player balances, so
 * they have no floor: `deposits` goes negative as players pay money in,
 * `withdrawals` positive as it is paid out, `house` holds the operator's
 * betting result, the expense accounts what bonuses cost.
 */
export type OperatorAccount = "house" | "deposits" | "withdrawals" | "bonus_expense" | "referral_expense" | "casino"

export type AccountRef = { readonly user: string; readonly kind: PlayerAccount } | { readonly operator: OperatorAccount }

/** One side of a movement, in paise: positive credits the account, negative debits it. */
export interface Leg {
  readonly account: AccountRef
  readonly amount: number
}

export interface Posting {
  readonly kind: string
  /** The player the movement is about: statements list it under them. */
  readonly userId?: string | undefined
  readonly reference?: string | undefined
  readonly description: string
  readonly legs: ReadonlyArray<Leg>
}

/** A movement would take an account below its floor. */
export class InsufficientFunds extends Schema.TaggedError<InsufficientFunds>()("InsufficientFunds", {
  account: Schema.String
}) {}

export interface PlayerBalances {
  readonly main: number
  readonly bonus: number
  readonly exposure: number
  readonly bonusExposure: number
  readonly withdrawalHold: number
  readonly refBonus: number
}

const ZERO: PlayerBalances = { main: 0, bonus: 0, exposure: 0, bonusExposure: 0, withdrawalHold: 0, refBonus: 0 }

const FIELD: Record<PlayerAccount, keyof PlayerBalances> = {
  main: "main",
  bonus: "bonus",
  exposure: "exposure",
  bonus_exposure: "bonusExposure",
  withdrawal_hold: "withdrawalHold",
  ref_bonus: "refBonus"
}

const isOverdraft = (error: SqlError.SqlError) => {
  const cause = (error.reason as { cause?: { constraint?: string } }).cause
  return cause?.constraint === "ledger_accounts_no_overdraft"
}

export interface LedgerCheck {
  readonly transactions: number
  readonly unbalanced: ReadonlyArray<{ id: string; sum: string }>
  readonly drifted: ReadonlyArray<{ id: string; balance: string; entries: string }>
  readonly belowFloor: ReadonlyArray<{ id: string; balance: string; floor: string }>
  readonly total: string
}

/**
 * The one place money moves. `post` writes a balanced transaction: it locks
 * the accounts in a fixed order (no deadlocks), moves their balances (the
 * database refuses an overdraft), records every entry with the balance after
 * it, and after commit tells each player concerned over socket.io.
 */
export class Ledger extends Context.Service<Ledger, {
  post(posting: Posting): Effect.Effect<string, InsufficientFunds | SqlError.SqlError>
  balances(userId: string): Effect.Effect<PlayerBalances, SqlError.SqlError>
  /** Sets the lowest a credit player's main account may go (minus their credit). */
  setCreditLimit(userId: string, creditPaise: number): Effect.Effect<void, SqlError.SqlError>
  readonly verify: Effect.Effect<LedgerCheck, SqlError.SqlError>
}>()("khel/Ledger") {
  static readonly layer = Layer.effect(
    Ledger,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const realtime = yield* Realtime

      const findAccount = (userId: string | null, kind: string) =>
        sql<{ id: string }>`SELECT id FROM ledger_accounts WHERE user_id IS NOT DISTINCT FROM ${userId} AND kind = ${kind}`

      /** The account's id, creating it on first use. Takes no lock: balances are locked in id order by `post`. */
      const accountId = (ref: AccountRef) =>
        Effect.gen(function*() {
          const userId = "user" in ref ? ref.user : null
          const kind = "user" in ref ? ref.kind : ref.operator
          const found = yield* findAccount(userId, kind)
          if (found[0]) return found[0].id
          // Player accounts start with a floor of 0 (a credit player's main is lowered by setCreditLimit); operator accounts have none.
          yield* sql`INSERT INTO ledger_accounts (user_id, kind, floor) VALUES (${userId}, ${kind}, ${userId === null ? null : 0}) ON CONFLICT (user_id, kind) DO NOTHING`
          const created = yield* findAccount(userId, kind)
          return created[0]!.id
        })

      const post = Effect.fn("Ledger.post")(function*(posting: Posting) {
        const sum = posting.legs.reduce((total, leg) => total + leg.amount, 0)
        if (posting.legs.length < 2 || sum !== 0 || posting.legs.some((leg) => !Number.isSafeInteger(leg.amount) || leg.amount === 0)) {
          return yield* Effect.die(new Error(`unbalanced posting ${posting.kind}: ${JSON.stringify(posting.legs)}`))
        }
        return yield* sql.withTransaction(Effect.gen(function*() {
          const legs: Array<{ id: string; amount: number; label: string }> = []
          for (const leg of posting.legs) {
            legs.push({ id: yield* accountId(leg.account), amount: leg.amount, label: "user" in leg.account ? leg.account.kind : leg.account.operator })
          }
          legs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
          const [tx] = yield* sql<{ id: string }>`
            INSERT INTO ledger_transactions (kind, user_id, reference, description)
            VALUES (${posting.kind}, ${posting.userId ?? null}, ${posting.reference ?? null}, ${posting.description})
            RETURNING id
          `
          for (const leg of legs) {
            const [account] = yield* sql<{ balance: bigint }>`
              UPDATE ledger_accounts SET balance = balance + ${leg.amount} WHERE id = ${leg.id} RETURNING balance
            `.pipe(Effect.mapError((error) => isOverdraft(error) ? new InsufficientFunds({ account: leg.label }) : error))
            yield* sql`
              INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
              VALUES (${tx!.id}, ${leg.id}, ${leg.amount}, ${account!.balance})
            `
          }
          const players = new Set(posting.legs.flatMap((leg) => ("user" in leg.account ? [leg.account.user] : [])))
          for (const player of players) yield* sql.afterCommit(realtime.notifyUser(player, posting.kind))
          return tx!.id
        }))
      })

      const balances = Effect.fn("Ledger.balances")(function*(userId: string) {
        const rows = yield* sql<{ kind: PlayerAccount; balance: bigint }>`SELECT kind, balance FROM ledger_accounts WHERE user_id = ${userId}`
        const result: Record<keyof PlayerBalances, number> = { ...ZERO }
        for (const row of rows) if (row.kind in FIELD) result[FIELD[row.kind]] = Number(row.balance)
        return result as PlayerBalances
      })

      const setCreditLimit = Effect.fn("Ledger.setCreditLimit")(function*(userId: string, creditPaise: number) {
        const id = yield* accountId({ user: userId, kind: "main" })
        yield* sql`UPDATE ledger_accounts SET floor = ${-creditPaise} WHERE id = ${id}`
      })

      const verify = Effect.gen(function*() {
        const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions`
        const unbalanced = yield* sql<{ id: string; sum: string }>`
          SELECT t.id, coalesce(sum(e.amount), 0)::text AS sum
            FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
           GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2
        `
        const drifted = yield* sql<{ id: string; balance: string; entries: string }>`
          SELECT a.id, a.balance::text AS balance, coalesce(sum(e.amount), 0)::text AS entries
            FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
           GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)
        `
        const belowFloor = yield* sql<{ id: string; balance: string; floor: string }>`
          SELECT id, balance::text AS balance, floor::text AS floor FROM ledger_accounts WHERE floor IS NOT NULL AND balance < floor
        `
        const [total] = yield* sql<{ total: string }>`SELECT coalesce(sum(balance), 0)::text AS total FROM ledger_accounts`
        return { transactions: count!.n, unbalanced, drifted, belowFloor, total: total!.total }
      }).pipe(Effect.withSpan("Ledger.verify"))

      return Ledger.of({ post, balances, setCreditLimit, verify })
    })
  )
}
