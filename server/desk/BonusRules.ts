import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { bonusRulesOf, bonusRulesProblem } from "../../src/domain/bonusRules.ts"
import type { BonusRules as Rules } from "../../src/schema/desk/settings.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { BONUS_RULES_KEY, readBonusRules } from "../bonus/rules.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Settings } from "../settings/Settings.ts"
import { type Actor, Audit } from "./Audit.ts"

/**
 * The bonus and referral rules as staff change them on the desk: checked by
 * src/domain/bonusRules.ts, written with their audit line (the rules before
 * and after) in one transaction, and told to every open desk. Bonus and
 * Referral read them at their next grant (server/bonus/rules.ts).
 */
export class BonusRules extends Context.Service<BonusRules, {
  readonly current: Effect.Effect<Rules, SqlError.SqlError>
  save(actor: Actor, payload: Rules): Effect.Effect<Rules, ApiError | SqlError.SqlError>
}>()("khel/BonusRules") {
  static readonly layer = Layer.effect(
    BonusRules,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings
      const audit = yield* Audit
      const realtime = yield* Realtime
      const current = readBonusRules.pipe(Effect.provideService(SqlClient.SqlClient, sql))

      const save = Effect.fn("BonusRules.save")(function*(actor: Actor, payload: Rules) {
        const problem = bonusRulesProblem(payload)
        if (problem) return yield* refuse("InvalidInput", problem)
        const next = bonusRulesOf(payload)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* current
          yield* settings.put(BONUS_RULES_KEY, next)
          yield* audit.record(actor, { action: "settings.bonusRules", subject: { kind: "settings", id: "bonusRules" }, before, after: next })
          yield* sql.afterCommit(realtime.notifyDesk("settings", "bonusRules"))
          return next
        }))
      })

      return BonusRules.of({ current, save })
    })
  )
}
