import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { decodeRows, Paise } from "../db/rows.ts"
import { Realtime } from "../realtime/Realtime.ts"

/** A player's accounts. `exposure` and `bonus_exposure` hold the liability of open bets. */
export const PLAYER_ACCOUNTS = ["main", "bonus", "exposure", "bonus_exposure", "withdrawal_hold", "ref_bonus"] as const
export type PlayerAccount = typeof PLAYER_ACCOUNTS[number]

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

const AccountIdRow = Schema.Struct({ id: Schema.String })
const BalanceRow = Schema.Struct({ kind: Schema.Literals(PLAYER_ACCOUNTS), balance: Paise })

const ZERO: PlayerBalances = { main: 0, bonus: 0, exposure: 0, bonusExposure: 0, withdrawalHold: 0, refBonus: 0 }

const FIELD: Record<PlayerAccount, keyof PlayerBalances> = {
  main: "main",
  bonus: "bonus",
  exposure: "exposure",
  bonus_exposure: "bonusExposure",
  withdrawal_hold: "withdrawalHold",
  ref_bonus: "refBonus"
}

const overdraftCause = (error: SqlError.SqlError) => {
  const cause = (error.reason as { cause?: { constraint?: string; detail?: string } }).cause
  return cause?.constraint === "ledger_accounts_no_overdraft" ? { detail: cause.detail ?? "" } : undefined
}

/**
 * A posting to run inside a statement of the caller's: `call` is the SQL expression that posts it (its value is
 * the ledger transaction's id); the statement that contains it runs through `settle`.
 */
export interface PreparedPosting {
  readonly call: Statement.Fragment
  readonly settle: <A, R>(statement: Effect.Effect<A, SqlError.SqlError, R>) => Effect.Effect<A, InsufficientFunds | SqlError.SqlError, R>
}

export interface LedgerCheck {
  readonly transactions: number
  readonly unbalanced: ReadonlyArray<{ id: string; sum: string }>
  readonly drifted: ReadonlyArray<{ id: string; balance: string; entries: string }>
  readonly belowFloor: ReadonlyArray<{ id: string; balance: string; floor: string }>
  readonly total: string
}

/**
 * The one place money moves. `post` writes a balanced transaction (the
 * database's `ledger_post`, which `prepare` lets a caller's statement call): it locks
 * the accounts in a fixed order (no deadlocks), moves their balances (the
 * database refuses an overdraft), records every entry with the balance after
 * it, and after commit tells each player concerned over socket.io.
 */
export class Ledger extends Context.Service<Ledger, {
  post(posting: Posting): Effect.Effect<string, InsufficientFunds | SqlError.SqlError>
  /** A posting for the caller's own statement (one round trip for the money and the caller's rows together). */
  prepare(posting: Posting): Effect.Effect<PreparedPosting, SqlError.SqlError>
  balances(userId: string): Effect.Effect<PlayerBalances, SqlError.SqlError>
  /** Opens a new player's accounts, with the main account's floor at minus their credit (0 for ordinary players). */
  openAccounts(userId: string, creditPaise: number): Effect.Effect<void, SqlError.SqlError>
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
        sql`SELECT id FROM ledger_accounts WHERE user_id IS NOT DISTINCT FROM ${userId} AND kind = ${kind}`.pipe(decodeRows(AccountIdRow))

      // Account ids never change, so each is looked up once per process. (The only accounts ever removed are
      // those of a sign-up never verified, which never had an entry and whose player is removed with them.)
      // Players get theirs when they are created and the operator's exist from the migrations, so the
      // rows found here are committed ones; an account created on the spot (a kind added later) is not
      // remembered, as the transaction creating it may still roll back.
      const knownAccounts = new Map<string, string>()

      /** The account's id. Takes no lock: `post` locks balances in id order. */
      const accountId = (ref: AccountRef) =>
        Effect.gen(function*() {
          const userId = "user" in ref ? ref.user : null
          const kind = "user" in ref ? ref.kind : ref.operator
          const key = `${userId ?? ""}|${kind}`
          const known = knownAccounts.get(key)
          if (known) return known
          const [found] = yield* findAccount(userId, kind)
          if (found) {
            knownAccounts.set(key, found.id)
            return found.id
          }
          yield* sql`INSERT INTO ledger_accounts (user_id, kind, floor) VALUES (${userId}, ${kind}, ${userId === null ? null : 0}) ON CONFLICT (user_id, kind) DO NOTHING`
          const [created] = yield* findAccount(userId, kind)
          return created!.id
        })

      const openAccounts = Effect.fn("Ledger.openAccounts")(function*(userId: string, creditPaise: number) {
        yield* sql.unsafe(
          `INSERT INTO ledger_accounts (user_id, kind, floor)
           SELECT $1, kind, CASE WHEN kind = 'main' THEN $2::bigint ELSE 0 END FROM unnest($3::text[]) AS k (kind)
           ON CONFLICT (user_id, kind) DO NOTHING`,
          [userId, String(-creditPaise), `{${PLAYER_ACCOUNTS.join(",")}}`]
        )
      })

      /**
       * The posting as a call of the database's `ledger_post` (migrations 0080, 0082), for a statement of the caller's
       * that does more than move money. `settle` runs that statement: it turns an overdraft into
       * `InsufficientFunds` and, after commit, tells each player concerned.
       */
      const prepare = Effect.fn("Ledger.prepare")(function*(posting: Posting) {
        const sum = posting.legs.reduce((total, leg) => total + leg.amount, 0)
        if (posting.legs.length < 2 || sum !== 0 || posting.legs.some((leg) => !Number.isSafeInteger(leg.amount) || leg.amount === 0)) {
          return yield* Effect.die(new Error(`unbalanced posting ${posting.kind}: ${JSON.stringify(posting.legs)}`))
        }
        // Legs on one account are netted: each account moves once and gets one entry.
        const byAccount = new Map<string, { amount: number; label: string }>()
        for (const leg of posting.legs) {
          const id = yield* accountId(leg.account)
          const label = "user" in leg.account ? leg.account.kind : leg.account.operator
          byAccount.set(id, { amount: (byAccount.get(id)?.amount ?? 0) + leg.amount, label })
        }
        const legs = [...byAccount].filter(([, leg]) => leg.amount !== 0)
        const json = JSON.stringify(legs.map(([account, leg]) => ({ account, amount: leg.amount })))
        const call = sql`ledger_post(${posting.kind}, ${posting.userId ?? null}, ${posting.reference ?? null}, ${posting.description}, ${json}::jsonb)`
        const players = new Set(posting.legs.flatMap((leg) => ("user" in leg.account ? [leg.account.user] : [])))
        const settle = <A, R>(statement: Effect.Effect<A, SqlError.SqlError, R>) =>
          statement.pipe(
            Effect.mapError((error) => {
              const overdraft = overdraftCause(error)
              if (!overdraft) return error
              // The database names the failing row ("Failing row contains (<id>, …)"); else blame the first debit.
              const failed = legs.find(([id]) => overdraft.detail.includes(id)) ?? legs.find(([, leg]) => leg.amount < 0)
              return new InsufficientFunds({ account: failed?.[1].label ?? "main" })
            }),
            Effect.tap(() => Effect.forEach(players, (player) => sql.afterCommit(realtime.notifyUser(player, posting.kind)), { discard: true }))
          )
        return { call, settle } satisfies PreparedPosting
      })

      const post = Effect.fn("Ledger.post")(function*(posting: Posting) {
        const { call, settle } = yield* prepare(posting)
        const [tx] = yield* settle(sql`SELECT ${call} AS transaction_id`.pipe(decodeRows(Schema.Struct({ transactionId: Schema.String }))))
        return tx!.transactionId
      })

      const balances = Effect.fn("Ledger.balances")(function*(userId: string) {
        const rows = yield* sql`SELECT kind, balance FROM ledger_accounts WHERE user_id = ${userId}`.pipe(decodeRows(BalanceRow))
        const result: Record<keyof PlayerBalances, number> = { ...ZERO }
        for (const row of rows) if (row.kind in FIELD) result[FIELD[row.kind]] = Number(row.balance)
        return result as PlayerBalances
      })

      const setCreditLimit = Effect.fn("Ledger.setCreditLimit")(function*(userId: string, creditPaise: number) {
        const id = yield* accountId({ user: userId, kind: "main" })
        yield* sql`UPDATE ledger_accounts SET floor = ${-creditPaise} WHERE id = ${id}`
      })

      const verify = Effect.gen(function*() {
        const [count] = yield* sql`SELECT count(*)::int AS n FROM ledger_transactions`.pipe(decodeRows(Schema.Struct({ n: Schema.Int })))
        const unbalanced = yield* sql`
          SELECT t.id, coalesce(sum(e.amount), 0)::text AS sum
            FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
           GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2
        `.pipe(decodeRows(Schema.Struct({ id: Schema.String, sum: Schema.String })))
        const drifted = yield* sql`
          SELECT a.id, a.balance::text AS balance, coalesce(sum(e.amount), 0)::text AS entries
            FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
           GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)
        `.pipe(decodeRows(Schema.Struct({ id: Schema.String, balance: Schema.String, entries: Schema.String })))
        const belowFloor = yield* sql`
          SELECT id, balance::text AS balance, floor::text AS floor FROM ledger_accounts WHERE floor IS NOT NULL AND balance < floor
        `.pipe(decodeRows(Schema.Struct({ id: Schema.String, balance: Schema.String, floor: Schema.String })))
        const [total] = yield* sql`SELECT coalesce(sum(balance), 0)::text AS total FROM ledger_accounts`.pipe(decodeRows(Schema.Struct({ total: Schema.String })))
        return { transactions: count!.n, unbalanced, drifted, belowFloor, total: total!.total }
      }).pipe(Effect.withSpan("Ledger.verify"))

      return Ledger.of({ post, prepare, balances, openAccounts, setCreditLimit, verify })
    })
  )
}
