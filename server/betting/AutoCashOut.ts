import { Context, Effect, Layer, Schema, Semaphore } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { autoCashOutDue, autoRuleProblem } from "../../src/domain/cashOut.ts"
import { formatSigned, toRupees } from "../../src/domain/money.ts"
import type { AutoCashOutPayload, AutoCashOutRule } from "../../src/schema/cashOut.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Simulation } from "../odds/runSimulator.ts"
import { recordCashOut } from "../observability/metrics.ts"
import { Admission } from "../protection/Admission.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { CASH_OUT_MESSAGES, CashOut } from "./CashOut.ts"

/** A rule as the watcher reads it: whose, on which market (its id and feed id), its sides in paise. */
const Rule = Schema.Struct({ userId: Schema.String, marketId: Schema.String, externalId: Schema.String, target: Schema.NullOr(Paise), floor: Schema.NullOr(Paise) })
type Rule = typeof Rule.Type

/** How often every rule is looked at again (rules set on other servers, prices the watcher missed). */
const SWEEP_EVERY = "1 second"

/** A rule's side in paise (null stays null), once `autoRuleProblem` found it whole. */
const paiseOf = (rupees: number | null) => (rupees === null ? null : Math.round(rupees * 100))

/**
 * Auto cash out: a player's take-profit target and/or stop-loss floor per market. Where prices are made (one
 * process, or the odds leader) the watcher looks at a market's rules whenever its book changes, and sweeps every rule
 * each second; a rule whose value crosses is fired through `CashOut.auto`, which deletes it in the cash out's own
 * transaction under the player's lock, so it fires once even when two servers try. The player is told (a toast, and
 * My Bets loads the hedge).
 */
export class AutoCashOut extends Context.Service<AutoCashOut, {
  rules(userId: string): Effect.Effect<ReadonlyArray<AutoCashOutRule>, SqlError.SqlError>
  set(userId: string, payload: AutoCashOutPayload): Effect.Effect<ReadonlyArray<AutoCashOutRule>, ApiError | SqlError.SqlError>
  /** Looks at every rule now, as the watcher does each second (tests). */
  readonly sweep: Effect.Effect<void, SqlError.SqlError>
}>()("khel/AutoCashOut") {
  static readonly layer = Layer.effect(
    AutoCashOut,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cashOut = yield* CashOut
      const feed = yield* OddsFeed
      const simulation = yield* Simulation
      const realtime = yield* Realtime
      const admission = yield* Admission
      const services = yield* Effect.context<never>()

      const load = (filter: { readonly userId?: string; readonly externalId?: string } = {}) =>
        sql`
          SELECT r.user_id, r.market_id, m.external_id, r.target, r.floor
            FROM cash_out_rules r JOIN markets m ON m.id = r.market_id
           WHERE m.status IN ('OPEN', 'SUSPENDED')
             ${filter.userId === undefined ? sql`` : sql`AND r.user_id = ${filter.userId}`}
             ${filter.externalId === undefined ? sql`` : sql`AND m.external_id = ${filter.externalId}`}
           ORDER BY r.created_at, r.user_id
        `.pipe(decodeRows(Rule))

      const rules = Effect.fn("AutoCashOut.rules")(function*(userId: string) {
        return (yield* load({ userId })).map((rule): AutoCashOutRule => ({
          marketId: rule.externalId,
          target: rule.target === null ? null : toRupees(rule.target),
          floor: rule.floor === null ? null : toRupees(rule.floor)
        }))
      })

      /** One rule against its market now: fired (and the player told) when it crosses, else left. */
      const check = (rule: Rule) =>
        Effect.gen(function*() {
          const sides = { target: rule.target === null ? null : Number(rule.target), floor: rule.floor === null ? null : Number(rule.floor) }
          // The rule as read, taken once: a rule changed or fired meanwhile deletes nothing, and nothing is written.
          const claim = sql`
            DELETE FROM cash_out_rules
             WHERE user_id = ${rule.userId} AND market_id = ${rule.marketId}
               AND target IS NOT DISTINCT FROM ${rule.target} AND floor IS NOT DISTINCT FROM ${rule.floor}
            RETURNING user_id
          `.pipe(Effect.map((rows) => rows.length > 0))
          const fired = yield* cashOut.auto(rule.userId, rule.externalId, (value) => autoCashOutDue(sides, value), claim)
          if (!fired) return
          yield* recordCashOut("auto")
          yield* realtime.notifyUser(rule.userId, "bet.cashout", `Auto cash out on ${fired.marketName}: ${formatSigned(toRupees(fired.value))} whatever wins`)
        }).pipe(
          // A market suspended or thin, a position already flat: the rule waits for the next price.
          Effect.catchTag("ApiError", () => Effect.void)
        )

      let watched = new Set<string>()
      /** Markets with a look waiting for the lock. */
      const queued = new Set<string>()
      const passes = yield* Semaphore.make(1)
      const leading = Effect.map(simulation.current, (simulator) => simulator !== undefined)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        Effect.runForkWith(services)(effect.pipe(Effect.catchCause((cause) => Effect.logWarning("auto cash out failed", cause))))

      /** A market's rules (every market's when none is named), each checked in turn. */
      const checkRules = (externalId?: string) =>
        passes.withPermits(1)(Effect.gen(function*() {
          // A look from a book: those books that came while it waited for the lock are covered by it.
          if (externalId !== undefined) queued.delete(externalId)
          if (!(yield* leading)) return
          const found = yield* load(externalId === undefined ? {} : { externalId })
          if (externalId === undefined) watched = new Set(found.map((rule) => rule.externalId))
          for (const rule of found) yield* check(rule)
        }))

      const sweep = checkRules()

      const set = Effect.fn("AutoCashOut.set")(function*(userId: string, payload: AutoCashOutPayload) {
        const problem = autoRuleProblem(payload)
        if (problem) return yield* refuse("InvalidInput", problem)
        const target = paiseOf(payload.target)
        const floor = paiseOf(payload.floor)
        const market = yield* cashOut.market(payload.marketId)
        if (target === null && floor === null) {
          yield* sql`DELETE FROM cash_out_rules WHERE user_id = ${userId} AND market_id = ${market.id}`
          return yield* rules(userId)
        }
        if (market.marketType === "FANCY") return yield* refuse("CashOutUnavailable", CASH_OUT_MESSAGES.fancy)
        if (!["OPEN", "SUSPENDED"].includes(market.status) || !["scheduled", "live"].includes(market.eventStatus)) {
          return yield* refuse("MarketClosed", CASH_OUT_MESSAGES.closed)
        }
        yield* admission.admitPlay(userId)
        yield* sql`
          INSERT INTO cash_out_rules (user_id, market_id, target, floor) VALUES (${userId}, ${market.id}, ${target}, ${floor})
          ON CONFLICT (user_id, market_id) DO UPDATE SET target = EXCLUDED.target, floor = EXCLUDED.floor, created_at = now()
        `
        watched.add(market.externalId)
        // The value may be past the rule already.
        run(checkRules(market.externalId))
        return yield* rules(userId)
      })

      // Every book published: a market with rules is looked at (only where prices are made). Books come many times a
      // second; one look waiting per market covers all that came meanwhile, so looks never queue up behind the lock.
      const unsubscribe = feed.subscribe((update) => {
        const externalId = update.market?.marketId
        if (externalId === undefined || !watched.has(externalId) || queued.has(externalId)) return
        queued.add(externalId)
        run(checkRules(externalId))
      })
      yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))
      yield* sweep.pipe(
        Effect.catchCause((cause) => Effect.logWarning("sweeping auto cash-out rules failed", cause)),
        Effect.delay(SWEEP_EVERY),
        Effect.forever,
        Effect.forkScoped
      )

      return AutoCashOut.of({ rules, set, sweep })
    })
  )
}
