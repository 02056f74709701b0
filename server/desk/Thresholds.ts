import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import { DEFAULT_THRESHOLDS } from "../../src/domain/staff.ts"
import type { Thresholds as ThresholdsView } from "../../src/schema/desk/markets.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { type Actor, Audit } from "./Audit.ts"

/** Where the thresholds are kept: a document of app_settings (paise). */
const KEY = "desk.thresholds"

const Stored = Schema.Struct({ adjustmentPaise: Schema.Int, liabilityPaise: Schema.Int })
export type StoredThresholds = typeof Stored.Type

/**
 * The four-eyes thresholds the DIRECTOR sets (docs/backoffice.md): a manual
 * adjustment above `adjustmentPaise`, and settling or voiding a market whose
 * liability is above `liabilityPaise`, need a second staff member's approval.
 */
export class Thresholds extends Context.Service<Thresholds, {
  readonly current: Effect.Effect<StoredThresholds, SqlError.SqlError>
  set(actor: Actor, value: ThresholdsView): Effect.Effect<ThresholdsView, ApiError | SqlError.SqlError>
}>()("khel/Thresholds") {
  static readonly layer = Layer.effect(
    Thresholds,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const audit = yield* Audit

      const current = sql`SELECT value FROM app_settings WHERE key = ${KEY}`.pipe(
        Effect.map((rows) => Schema.decodeUnknownOption(Stored)(rows[0]?.value)),
        Effect.map((stored) => (stored._tag === "Some" ? stored.value : DEFAULT_THRESHOLDS)),
        Effect.withSpan("Thresholds.current")
      )

      const view = (stored: StoredThresholds): ThresholdsView => ({ adjustment: toRupees(stored.adjustmentPaise), liability: toRupees(stored.liabilityPaise) })

      const set = Effect.fn("Thresholds.set")(function*(actor: Actor, value: ThresholdsView) {
        const adjustmentPaise = toPaise(value.adjustment)
        const liabilityPaise = toPaise(value.liability)
        if (adjustmentPaise === undefined || liabilityPaise === undefined) return yield* refuse("InvalidInput", "Thresholds are rupees with at most two decimals.")
        const next = { adjustmentPaise: Number(adjustmentPaise), liabilityPaise: Number(liabilityPaise) }
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* current
          yield* sql`
            INSERT INTO app_settings (key, value) VALUES (${KEY}, ${JSON.stringify(next)}::jsonb)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
          `
          yield* audit.record(actor, { action: "thresholds.set", subject: { kind: "settings", id: KEY }, before: view(before), after: view(next) })
          return view(next)
        }))
      })

      return Thresholds.of({ current, set })
    })
  )
}
