import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { limitAmountProblem } from "../../src/domain/protection.ts"
import { type Region, regionFromHeader, regionName } from "../../src/domain/regions.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { ComplianceSettings, type ComplianceSettingsUpdate } from "../../src/schema/protection.ts"
import type { PublicCompliance } from "../../src/schema/settings.ts"
import { ServerConfig } from "../config.ts"
import { decodeFirst } from "../db/rows.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Actor, audit } from "./audit.ts"

/** Stored in app_settings under this key, as one JSON document. */
export const COMPLIANCE_KEY = "compliance"

/** A fresh site: every state served, deposits open, no default limits, no proxy header. */
export const DEFAULT_SWITCHES: ComplianceSettings = { blockedRegions: [], regionHeader: null, depositsOpen: true, defaultLimits: [] }

const decodeSwitches = Schema.decodeUnknownOption(ComplianceSettings)

/** The switches as stored (app_settings.value), or the defaults when none were saved. */
export const switchesOf = (value: unknown): ComplianceSettings => {
  const decoded = decodeSwitches(value)
  return decoded._tag === "Some" ? decoded.value : DEFAULT_SWITCHES
}

export const publicSwitches = (switches: ComplianceSettings): PublicCompliance => ({
  depositsOpen: switches.depositsOpen,
  blockedRegions: switches.blockedRegions
})

export const regionBlockedMessage = (region: string) => `Khel is not available to residents of ${regionName(region)}.`

/**
 * The operator's compliance switches: blocked regions (with the header a
 * trusted proxy names the visitor's region in), whether real-money deposits
 * are open, and the limits new players start with. Every change is audited.
 */
export class Compliance extends Context.Service<Compliance, {
  readonly settings: Effect.Effect<ComplianceSettings, SqlError.SqlError>
  update(update: ComplianceSettingsUpdate, actor: Actor): Effect.Effect<ComplianceSettings, ApiError | SqlError.SqlError>
  /**
   * Sign-up: refuses a declared region the operator does not serve, and, when a
   * trusted proxy names the visitor's region (TRUST_PROXY on and a region
   * header set), a visitor the proxy places in such a region.
   */
  admitSignUp(region: Region, headers: Readonly<Record<string, string | undefined>>): Effect.Effect<void, ApiError | SqlError.SqlError>
}>()("khel/Compliance") {
  static readonly layer = Layer.effect(
    Compliance,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const config = yield* ServerConfig
      const clock = yield* Clock.Clock
      const realtime = yield* Realtime

      const settings = sql`SELECT value FROM app_settings WHERE key = ${COMPLIANCE_KEY}`.pipe(
        decodeFirst(Schema.Struct({ value: Schema.Unknown })),
        Effect.map((row) => switchesOf(row?.value))
      )

      const update = Effect.fn("Compliance.update")(function*(change: ComplianceSettingsUpdate, actor: Actor) {
        const limits = change.defaultLimits ?? []
        for (const limit of limits) {
          const problem = limitAmountProblem(limit.amount)
          if (problem) return yield* refuse("InvalidInput", `Default ${limit.period} ${limit.kind} limit: ${problem}`)
        }
        if (new Set(limits.map((limit) => `${limit.kind}:${limit.period}`)).size !== limits.length) {
          return yield* refuse("InvalidInput", "Give at most one default limit for each kind and period.")
        }
        return yield* sql.withTransaction(Effect.gen(function*() {
          // One writer at a time, so two operators' changes never overwrite each other half-way.
          yield* sql`SELECT pg_advisory_xact_lock(hashtext('khel:compliance'))`
          const before = yield* settings
          const after: ComplianceSettings = {
            blockedRegions: change.blockedRegions ? [...new Set(change.blockedRegions)].sort() : before.blockedRegions,
            regionHeader: change.regionHeader === undefined ? before.regionHeader : change.regionHeader,
            depositsOpen: change.depositsOpen ?? before.depositsOpen,
            defaultLimits: change.defaultLimits ?? before.defaultLimits
          }
          yield* sql`
            INSERT INTO app_settings (key, value) VALUES (${COMPLIANCE_KEY}, ${JSON.stringify(after)}::jsonb)
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
          `
          yield* audit(sql, { userId: null, actor, action: "settings.update", detail: { before, after }, at: new Date(clock.currentTimeMillisUnsafe()) })
          // Every open desk's settings screen reads them again, whoever changed them (the desk, the API or the CLI).
          yield* sql.afterCommit(realtime.notifyDesk("settings", "protection"))
          return after
        }))
      })

      const admitSignUp = Effect.fn("Compliance.admitSignUp")(function*(region: Region, headers: Readonly<Record<string, string | undefined>>) {
        const switches = yield* settings
        if (switches.blockedRegions.includes(region)) return yield* refuse("RegionBlocked", regionBlockedMessage(region))
        if (!config.trustProxy || !switches.regionHeader) return
        const seen = regionFromHeader(headers[switches.regionHeader])
        if (seen && switches.blockedRegions.includes(seen)) {
          return yield* refuse("RegionBlocked", `Khel is not available in ${regionName(seen)}, where you are signing up from.`)
        }
      })

      return Compliance.of({ settings, update, admitSignUp })
    })
  )
}
