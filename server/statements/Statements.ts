import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import { statementWords } from "../../src/domain/statements.ts"
import type { Statement, StatementRow } from "../../src/schema/statements.ts"
import { decodeRows, NumericText } from "../db/rows.ts"
import type { PlayerAccount } from "../ledger/Ledger.ts"

/**
 * Movements of money in and out of the site (and bonuses); everything else a
 * ledger transaction can be (bets, settlements, casino rounds, kinds other
 * engineers add later) is a game result.
 */
export const PAYMENT_KINDS: ReadonlyArray<string> = [
  "deposit",
  "withdrawal_hold",
  "withdrawal_paid",
  "withdrawal_rejected",
  "adjustment",
  "adjustment_debit",
  "bonus_activate",
  "bonus_claim",
  "bonus_forfeit",
  "referral_reward",
  "referral_claim"
]

/** One ledger transaction as it touched the shown wallets (the sum of its entries on them, as text: no precision lost). */
const StatementEntry = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  description: Schema.String,
  reference: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  amount: NumericText,
  // A bet's own postings (reference bet:<id>): the bet's selection and market, for the statement's words.
  selection: Schema.NullOr(Schema.String),
  market: Schema.NullOr(Schema.String)
})

/**
 * account: every movement of the wallets shown; payments: money in and out;
 * results: game results (profit and loss), where a stake only counts once it
 * is settled, since held exposure is part of what is shown.
 */
export type StatementView = "account" | "payments" | "results"

const WALLETS: Record<StatementView, { main: ReadonlyArray<PlayerAccount>; bonus: ReadonlyArray<PlayerAccount> }> = {
  account: { main: ["main"], bonus: ["bonus", "ref_bonus"] },
  payments: { main: ["main"], bonus: ["bonus", "ref_bonus"] },
  results: { main: ["main", "exposure"], bonus: ["bonus", "bonus_exposure"] }
}

/**
 * Where the account statement's wallets hold money for a while: a transaction that only moves money on from there
 * (a lost bet settled, a held withdrawal paid) changes no balance shown, yet the statement lists it, with nothing in
 * or out, so that every bet's result and every payment's end is there to read.
 */
const HELD: Record<StatementView, { main: ReadonlyArray<PlayerAccount>; bonus: ReadonlyArray<PlayerAccount> }> = {
  account: { main: ["exposure", "withdrawal_hold"], bonus: ["bonus_exposure"] },
  payments: { main: [], bonus: [] },
  results: { main: [], bonus: [] }
}

/**
 * Statements straight from the ledger: every transaction that touched the
 * chosen wallets between two instants, with what it did to them, the balance
 * after it and the totals. Any `kind` shows, with its own description.
 */
export class Statements extends Context.Service<Statements, {
  statement(userId: string, options: { view: StatementView; from: Date; to: Date; includeBonus: boolean }): Effect.Effect<Statement, SqlError.SqlError>
}>()("khel/Statements") {
  static readonly layer = Layer.effect(
    Statements,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const statement = Effect.fn("Statements.statement")(function*(userId: string, options: { view: StatementView; from: Date; to: Date; includeBonus: boolean }) {
        const wallets = WALLETS[options.view]
        const held = HELD[options.view]
        const kinds = options.includeBonus ? [...wallets.main, ...wallets.bonus] : [...wallets.main]
        const touched = [...kinds, ...held.main, ...(options.includeBonus ? held.bonus : [])]
        const [opening] = yield* sql`
          SELECT coalesce(sum(e.amount), 0)::text AS total
            FROM ledger_entries e
            JOIN ledger_accounts a ON a.id = e.account_id
            JOIN ledger_transactions t ON t.id = e.transaction_id
           WHERE a.user_id = ${userId} AND a.kind IN ${sql.in(kinds)} AND t.created_at < ${options.from}
        `.pipe(decodeRows(Schema.Struct({ total: NumericText })))
        const rows = yield* sql`
          WITH moved AS (
            SELECT t.id, t.kind, t.description, t.reference, t.created_at, min(e.id) AS first,
                   coalesce(sum(e.amount) FILTER (WHERE a.kind IN ${sql.in(kinds)}), 0) AS amount
              FROM ledger_entries e
              JOIN ledger_accounts a ON a.id = e.account_id
              JOIN ledger_transactions t ON t.id = e.transaction_id
             WHERE a.user_id = ${userId} AND a.kind IN ${sql.in(touched)}
               AND t.created_at >= ${options.from} AND t.created_at <= ${options.to}
             GROUP BY t.id
          )
          SELECT moved.id, moved.kind, moved.description, moved.reference, moved.created_at, moved.amount::text AS amount,
                 b.selection_name AS selection, m.name AS market
            FROM moved
            LEFT JOIN bets b ON moved.reference LIKE 'bet:%' AND b.id = substr(moved.reference, 5)
            LEFT JOIN markets m ON m.id = b.market_id
           ORDER BY moved.first
        `.pipe(decodeRows(StatementEntry))
        const openingPaise = BigInt(opening!.total)
        let balance = openingPaise
        const shown: Array<StatementRow> = []
        let credit = 0n
        let debit = 0n
        for (const row of rows) {
          const amount = BigInt(row.amount)
          balance += amount
          const isPayment = PAYMENT_KINDS.includes(row.kind)
          const keep = options.view === "account" || (options.view === "payments" ? isPayment : !isPayment)
          // A movement between shown wallets (a bet placed and held) nets to zero: not a result, not a payment.
          if (!keep || (amount === 0n && options.view !== "account")) continue
          if (amount > 0n) credit += amount
          else debit -= amount
          const words = statementWords(row, row.selection !== null && row.market !== null ? { selection: row.selection, market: row.market } : undefined)
          shown.push({
            _id: row.id,
            kind: row.kind,
            title: words.title,
            description: words.detail,
            reference: row.reference,
            createdAt: row.createdAt.toISOString(),
            credit: amount > 0n ? toRupees(amount) : 0,
            debit: amount < 0n ? toRupees(-amount) : 0,
            amount: toRupees(amount),
            balance: toRupees(balance)
          })
        }
        // Newest first, as statements are read.
        shown.reverse()
        return {
          startDate: options.from.toISOString(),
          endDate: options.to.toISOString(),
          openingBalance: toRupees(openingPaise),
          closingBalance: toRupees(balance),
          rows: shown,
          totals: { credit: toRupees(credit), debit: toRupees(debit), net: toRupees(credit - debit) }
        } satisfies Statement
      })

      return Statements.of({ statement })
    })
  )
}
