import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst } from "../db/rows.ts"
import type { LedgerCheck } from "./Ledger.ts"

/** How many problems a check found (all balances adding up to anything but zero is one). */
export const problemsOf = (check: LedgerCheck) =>
  check.unbalanced.length + check.drifted.length + check.belowFloor.length + (check.total === "0" ? 0 : 1)

/** Keeps the outcome of a verify-ledger run (migration 0170), for the metrics and their alert. */
export const recordVerification = (check: LedgerCheck) =>
  SqlClient.SqlClient.use((sql) => {
    const problems = problemsOf(check)
    return sql`INSERT INTO ledger_verifications (ok, transactions, problems) VALUES (${problems === 0}, ${check.transactions}, ${problems})`
  }).pipe(Effect.asVoid)

const Verification = Schema.Struct({ ok: Schema.Boolean, at: Schema.Date })

/** The newest verify-ledger run, if any. */
export const lastVerification = SqlClient.SqlClient.use((sql) =>
  sql`SELECT ok, at FROM ledger_verifications ORDER BY id DESC LIMIT 1`.pipe(decodeFirst(Verification))
)
