import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { formatRupees, toPaise, toRupees } from "../../src/domain/money.ts"
import type { BetPreferencesPayload, BetSetting } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { DEFAULT_LIMITS, Limits, limitsFrom } from "./Bets.ts"

/** What the player is told when they change their betting settings. */
export const preferencesMessage = (changed: BetPreferencesPayload) =>
  [
    changed.oddsChange === undefined ? undefined
      : changed.oddsChange === "any" ? "The bet slip will take the best available price unless you untick it"
      : "The bet slip will ask for your price or better unless you tick \"take the best available price\"",
    changed.oneClick === undefined ? undefined
      : changed.oneClick === null ? "One-click betting is off"
      : `One-click betting is on: a click on a price places ${formatRupees(changed.oneClick)}`
  ].filter((part) => part !== undefined).join(". ") || "Settings saved"

type Scope = { readonly sportsId?: string | undefined; readonly leagueId?: string | undefined; readonly eventId?: string | undefined }

/**
 * What the bet slip starts from: the stake limits and in-play delay that apply to an event, and the player's betting
 * settings (whether "take the best available price" is ticked by default, one-click betting's stake). A bet says
 * for itself whether it takes the best price: the setting is only the slip's default.
 */
export class Preferences extends Context.Service<Preferences, {
  setting(userId: string, scope: Scope): Effect.Effect<BetSetting, SqlError.SqlError>
  /** What the payload names changes; the rest stays. */
  update(userId: string, preferences: BetPreferencesPayload): Effect.Effect<void, ApiError | SqlError.SqlError>
}>()("khel/Preferences") {
  static readonly layer = Layer.effect(
    Preferences,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const limitsFor = (scope: Scope) =>
        sql`
          SELECT bl.min_stake, bl.max_stake, bl.in_play_delay_seconds
          ${limitsFrom(sql, { sport: scope.sportsId ?? null, league: scope.leagueId ?? null, event: scope.eventId ?? null })}
        `.pipe(decodeRows(Limits), Effect.map((rows) => rows[0] ?? DEFAULT_LIMITS))

      const preferencesOf = (userId: string) =>
        sql`SELECT accept_any_odds, one_click_stake FROM betting_preferences WHERE user_id = ${userId}`.pipe(
          decodeRows(Schema.Struct({ acceptAnyOdds: Schema.Boolean, oneClickStake: Schema.NullOr(Paise) })),
          Effect.map(([row]) => ({ oddsChange: row?.acceptAnyOdds ? "any" as const : "better" as const, oneClick: row?.oneClickStake ? toRupees(row.oneClickStake) : null }))
        )

      const setting = Effect.fn("Preferences.setting")(function*(userId: string, scope: Scope) {
        const limits = yield* limitsFor(scope)
        return {
          minStake: toRupees(limits.minStake),
          maxStake: toRupees(limits.maxStake),
          betDelay: limits.inPlayDelaySeconds,
          ...yield* preferencesOf(userId)
        } satisfies BetSetting
      })

      const update = Effect.fn("Preferences.update")(function*(userId: string, preferences: BetPreferencesPayload) {
        const oneClick = preferences.oneClick == null ? preferences.oneClick : toPaise(preferences.oneClick)
        if (oneClick === undefined && preferences.oneClick !== undefined) return yield* refuse("InvalidInput", "Stake must be an amount in rupees with at most two decimals.")
        // NULL: left as it is; 0: one-click betting off.
        const anyOdds = preferences.oddsChange === undefined ? null : preferences.oddsChange === "any"
        const stake = oneClick === undefined ? null : oneClick ?? 0
        yield* sql`
          INSERT INTO betting_preferences (user_id, accept_any_odds, one_click_stake)
          VALUES (${userId}, coalesce(${anyOdds}::boolean, false), nullif(${stake}::bigint, 0))
          ON CONFLICT (user_id) DO UPDATE SET
            accept_any_odds = coalesce(${anyOdds}::boolean, betting_preferences.accept_any_odds),
            one_click_stake = CASE WHEN ${stake}::bigint IS NULL THEN betting_preferences.one_click_stake ELSE nullif(${stake}::bigint, 0) END,
            updated_at = now()
        `
      })

      return Preferences.of({ setting, update })
    })
  )
}
