import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Envelope } from "./envelope.ts"
import { Authentication } from "./middleware.ts"
import { Rupees } from "./user.ts"

/**
 * Statements read the ledger. `isChecked` ("true") adds the bonus and referral
 * wallets to the main balance.
 */
export const StatementQuery = Schema.Struct({
  start_date: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(40))),
  end_date: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(40))),
  isChecked: Schema.optionalKey(Schema.Literals(["true", "false"]))
})
export type StatementQuery = typeof StatementQuery.Type

/**
 * One ledger transaction as the player sees it: what it did to the wallets shown, and the balance after. `kind` is
 * the ledger's, for code; `title` and `description` say in plain words what happened and what it was about
 * ("Bet lost", "India v Australia · Match Odds"). A transaction that only moved held money on (a lost bet) has
 * nothing in or out.
 */
export const StatementRow = Schema.Struct({
  _id: Schema.String,
  kind: Schema.String,
  title: Schema.String,
  description: Schema.String,
  reference: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  credit: Rupees,
  debit: Rupees,
  amount: Rupees,
  balance: Rupees
})
export type StatementRow = typeof StatementRow.Type

export const Statement = Schema.Struct({
  startDate: Schema.String,
  endDate: Schema.String,
  openingBalance: Rupees,
  closingBalance: Rupees,
  rows: Schema.Array(StatementRow),
  totals: Schema.Struct({ credit: Rupees, debit: Rupees, net: Rupees })
})
export type Statement = typeof Statement.Type

/** Statements and profit and loss of the signed-in player (Authentication is added in api.ts). */
export class StatementsApi extends HttpApiGroup.make("statements")
  .add(
    HttpApiEndpoint.get("accountStatement", "/account-statement", { query: StatementQuery, success: Envelope(Statement) }),
    HttpApiEndpoint.get("transaction", "/transaction", { query: StatementQuery, success: Envelope(Statement) }),
    HttpApiEndpoint.get("resultTransaction", "/result-transaction", { query: StatementQuery, success: Envelope(Statement) })
  )
  .middleware(Authentication)
  .prefix("/api/v1")
{}
