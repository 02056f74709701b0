import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { fancyOutcome, runnerOutcome } from "../../src/domain/betting.ts"
import { outcomeSpaceOf } from "../../src/domain/bonus.ts"
import { toRupees } from "../../src/domain/money.ts"
import { betWon } from "../../src/domain/push.ts"
import { settlementDescription, type Verdict } from "../../src/domain/statements.ts"
import type { Settlement as SettlementView } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Bonus } from "../bonus/Bonus.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"
import { type AccountRef, Ledger } from "../ledger/Ledger.ts"
import { Admission } from "../protection/Admission.ts"
import { Push } from "../push/Push.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { Referral } from "../referral/Referral.ts"
import { Matches, matchedPositions } from "./Bets.ts"
import { wageringOf } from "./wagering.ts"

const EventMarket = Schema.Struct({ id: Schema.String, externalId: Schema.String, name: Schema.String, marketType: MarketType })

const MarketRow = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  status: Schema.String,
  eventName: Schema.String
})

const Wallet = Schema.Literals([1, 2])

const OpenBet = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  selectionId: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: NumericText,
  size: Schema.NullOr(NumericText),
  stake: Paise,
  matches: Schema.NullOr(Matches),
  wallet: Wallet,
  cashOut: Schema.Boolean
})
type OpenBet = typeof OpenBet.Type

/** What a market holds of each player's money. */
const Held = Schema.Struct({ userId: Schema.String, wallet: Wallet, exposure: Paise })

/** A market an operator may settle, with its runners' selection ids ("id=name, …") and its open bets. */
export interface UnsettledMarket {
  readonly marketId: string
  readonly event: string
  readonly market: string
  readonly type: MarketType
  readonly status: string
  readonly runners: string | null
  readonly openBets: number
}

const accounts = (userId: string, wallet: 1 | 2) => ({
  free: { user: userId, kind: wallet === 2 ? "bonus" : "main" } as AccountRef,
  held: { user: userId, kind: wallet === 2 ? "bonus_exposure" : "exposure" } as AccountRef
})

/**
 * Settles a market exactly once: the market row is locked and moved to
 * SETTLED or VOID, its result recorded, and for every player with open bets
 * one ledger transaction releases what was held and pays or collects the
 * result of the matched bets against the house; what waits unmatched is
 * cancelled (a bet of which nothing was matched is closed as cancelled). A second attempt finds the market settled and is
 * refused; bets placed meanwhile wait for the lock and then see it closed.
 *
 * Wagering (src/domain/bonus.ts) counts per outcome space, not per market:
 * an event's markets settled on the same outcomes (Match Odds and Bookmaker)
 * are locked together, in id order, and the one whose settlement leaves none
 * of them open counts what the player risked over all of them, once: from the
 * bonus wallet towards their bonus, from the main wallet towards the play a
 * referral reward waits for. A market alone (a fancy, a race) counts at its
 * own settlement.
 */
export class Settlement extends Context.Service<Settlement, {
  settle(marketId: string, result: string, by: string): Effect.Effect<SettlementView, ApiError | SqlError.SqlError>
  voidMarket(marketId: string, reason: string, by: string): Effect.Effect<SettlementView, ApiError | SqlError.SqlError>
  /** Markets still to settle whose event or market name contains `search` (any case), most open bets first, at most 50. */
  unsettled(search: string): Effect.Effect<ReadonlyArray<UnsettledMarket>, SqlError.SqlError>
}>()("khel/Settlement") {
  static readonly layer = Layer.effect(
    Settlement,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const bonus = yield* Bonus
      const referral = yield* Referral
      const realtime = yield* Realtime
      const admission = yield* Admission
      const push = yield* Push

      const run = (marketId: string, decision: { outcome: "result"; result: string } | { outcome: "void"; reason: string }, by: string) =>
        sql.withTransaction(Effect.gen(function*() {
          // The markets of the event settled on the same outcomes, locked in id order: two settled at once wait in line.
          const siblings = yield* sql`
            SELECT id, external_id, name, market_type FROM markets
             WHERE event_id = (SELECT event_id FROM markets WHERE external_id = ${marketId})
          `.pipe(decodeRows(EventMarket))
          const target = siblings.find((row) => row.externalId === marketId)
          if (!target) return yield* refuse("NotFound", "No such market.")
          const space = outcomeSpaceOf(target)
          const ids = space === undefined ? [target.id] : siblings.filter((row) => outcomeSpaceOf(row) === space).map((row) => row.id)
          const group = yield* sql`
            SELECT m.id, m.external_id, m.name, m.market_type, m.status, e.name AS event_name
              FROM markets m JOIN events e ON e.id = m.event_id
             WHERE m.id IN ${sql.in(ids)}
             ORDER BY m.id
               FOR UPDATE OF m
          `.pipe(decodeRows(MarketRow))
          const market = group.find((row) => row.id === target.id)!
          if (market.status === "SETTLED" || market.status === "VOID") {
            return yield* refuse("Conflict", `This market was already ${market.status === "SETTLED" ? "settled" : "voided"}.`)
          }
          let winner: string | undefined
          let runs: number | undefined
          if (decision.outcome === "result") {
            if (market.marketType === "FANCY") {
              runs = Number(decision.result)
              if (!/^\d{1,5}$/.test(decision.result.trim())) return yield* refuse("Refused", "A fancy result is the number of runs.")
            } else {
              const runner = yield* sql`SELECT 1 FROM runners WHERE market_id = ${market.id} AND selection_id = ${decision.result}`
              if (runner.length === 0) return yield* refuse("Refused", "The result must be a selection of this market.")
              winner = decision.result
            }
          }
          yield* sql`UPDATE markets SET status = ${decision.outcome === "void" ? "VOID" : "SETTLED"} WHERE id = ${market.id}`
          yield* sql`
            INSERT INTO market_results (market_id, outcome, result, settled_by, reason)
            VALUES (${market.id}, ${decision.outcome}, ${decision.outcome === "result" ? decision.result.trim() : null}, ${by},
                    ${decision.outcome === "void" ? decision.reason : ""})
          `
          const bets = yield* sql`
            SELECT id, user_id, selection_id, side, odds::text AS odds, size::text AS size, stake, matches, wallet,
                   cash_out_quote IS NOT NULL AS cash_out
              FROM bets WHERE market_id = ${market.id} AND status = 'open'
             ORDER BY user_id, created_at
          `.pipe(decodeRows(OpenBet))
          const held = yield* sql`
            SELECT user_id, wallet, exposure FROM market_exposures WHERE market_id = ${market.id}
          `.pipe(decodeRows(Held))
          const heldBy = new Map(held.map((row) => [row.userId, row]))
          const byUser = new Map<string, Array<OpenBet>>()
          for (const bet of bets) byUser.set(bet.userId, [...(byUser.get(bet.userId) ?? []), bet])

          let playersNet = 0
          for (const [userId, userBets] of byUser) {
            const wallet = heldBy.get(userId)?.wallet ?? userBets[0]!.wallet
            const exposure = Number(heldBy.get(userId)?.exposure ?? 0n)
            const results = userBets.map((bet) =>
              decision.outcome === "void" ? 0 : matchedPositions(bet).reduce((sum, part) =>
                sum + (market.marketType === "FANCY" ? fancyOutcome(part, runs!) : runnerOutcome(market.marketType, part, winner!)), 0)
            )
            const net = results.reduce((a, b) => a + b, 0)
            playersNet += net
            const { free, held: heldAccount } = accounts(userId, wallet)
            const legs = [
              { account: heldAccount, amount: -exposure },
              { account: free, amount: exposure + net },
              { account: { operator: "house" } as AccountRef, amount: -net }
            ].filter((leg) => leg.amount !== 0)
            const verdict: Verdict = decision.outcome === "void" ? "void" : net > 0 ? "won" : net < 0 ? "lost" : "settled"
            if (legs.length >= 2) {
              yield* ledger.post({
                kind: decision.outcome === "void" ? "bet.void" : "bet.settle",
                userId,
                reference: `market:${market.id}`,
                // A position cashed out (in part) says so in profit and loss.
                description: settlementDescription(market.eventName, userBets.some((bet) => bet.cashOut) ? `${market.name} (cashed out)` : market.name, verdict),
                legs
              }).pipe(Effect.catchTag("InsufficientFunds", (error) => Effect.die(error)))
            } else {
              // Nothing to move (a perfect hedge), but My Bets still changes: tell the player after commit.
              yield* sql.afterCommit(realtime.notifyUser(userId, decision.outcome === "void" ? "bet.void" : "bet.settle"))
            }
            for (const [index, bet] of userBets.entries()) {
              const pl = results[index]!
              const status = matchedPositions(bet).length === 0 ? "cancelled" : decision.outcome === "void" ? "void" : pl > 0 ? "won" : "lost"
              yield* sql`
                UPDATE bets SET status = ${status}, profit_loss = ${pl}, settled_at = now(), cancelled = cancelled + unmatched, unmatched = 0
                 WHERE id = ${bet.id}
              `
            }
            if (verdict === "won") {
              yield* sql.afterCommit(push.notify(userId, betWon({ marketId: market.externalId, event: market.eventName, market: market.name, rupees: toRupees(net) })))
            }
            // The player's result counts towards their loss limits and activity statement.
            yield* admission.recordResult(userId, "sports", net, `market:${market.id}`)
          }
          yield* sql`DELETE FROM market_exposures WHERE market_id = ${market.id}`
          yield* sql.afterCommit(realtime.bookChanged(market.externalId))
          // The last of the space's markets to close counts what each player risked over all of them.
          if (group.every((row) => row.id === market.id || row.status === "SETTLED" || row.status === "VOID")) {
            for (const counted of yield* wageringOf(sql, group)) {
              yield* bonus.recordWagering(counted.userId, counted.bonus)
              yield* referral.recordPlay(counted.userId, counted.own)
            }
          }
          return {
            marketId: market.externalId,
            outcome: decision.outcome,
            result: decision.outcome === "result" ? decision.result.trim() : null,
            bets: bets.length,
            players: byUser.size,
            playersNet: toRupees(playersNet)
          } satisfies SettlementView
        })).pipe(Effect.withSpan("Settlement.run", { attributes: { marketId, outcome: decision.outcome } }))

      const unsettled = (search: string) =>
        // Cast, not decoded: the row goes straight back out unchanged.
        sql<UnsettledMarket>`
          SELECT m.external_id AS market_id, e.name AS event, m.name AS market, m.market_type AS type, m.status,
                 (SELECT string_agg(r.selection_id || '=' || r.name, ', ' ORDER BY r.sort) FROM runners r WHERE r.market_id = m.id) AS runners,
                 (SELECT count(*)::int FROM bets b WHERE b.market_id = m.id AND b.status = 'open') AS open_bets
            FROM markets m JOIN events e ON e.id = m.event_id
           WHERE m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')
             AND (lower(e.name) LIKE ${`%${search.toLowerCase()}%`} OR lower(m.name) LIKE ${`%${search.toLowerCase()}%`})
           ORDER BY open_bets DESC, e.starts_at, m.sort
           LIMIT 50
        `.pipe(Effect.withSpan("Settlement.unsettled"))

      return Settlement.of({
        settle: (marketId, result, by) => run(marketId, { outcome: "result", result }, by),
        voidMarket: (marketId, reason, by) => run(marketId, { outcome: "void", reason }, by),
        unsettled
      })
    })
  )
}
