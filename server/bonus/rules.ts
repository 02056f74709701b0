import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { BonusRules } from "../../src/schema/desk/settings.ts"
import { decodeFirst } from "../db/rows.ts"

/** Where the desk keeps the bonus and referral rules (app_settings, migration 0131). */
export const BONUS_RULES_KEY = "bonus_rules"

/**
 * The bonus and referral rules as they are now (src/domain/bonusRules.ts).
 * Read by each grant, inside its transaction: a change applies from the next
 * grant on, and a granted bonus keeps the amounts it was granted with.
 */
export const readBonusRules = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const row = yield* sql`SELECT value FROM app_settings WHERE key = ${BONUS_RULES_KEY}`.pipe(decodeFirst(Schema.Struct({ value: BonusRules })))
  // The migration stores them; a database without the row is a broken install.
  if (!row) return yield* Effect.die(new Error("The bonus rules are missing (migration 0131)."))
  return row.value
}).pipe(Effect.withSpan("readBonusRules"))
