import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { type OutcomeMarket, outcomesOf, wageringOfEvent } from "../../src/domain/bonus.ts"
import type { Position } from "../../src/domain/betting.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"
import { Matches, matchedPositions } from "./Bets.ts"

const SettledBet = Schema.Struct({
  userId: Schema.String,
  marketId: Schema.String,
  selectionId: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: NumericText,
  size: Schema.NullOr(NumericText),
  stake: Paise,
  matches: Schema.NullOr(Matches),
  wallet: Schema.Literals([1, 2]),
  /** Placed from the bonus wallet while the player's bonus in play was active. */
  bonusCovered: Schema.Boolean
})

const Runner = Schema.Struct({ marketId: Schema.String, selectionId: Schema.String, name: Schema.String })

/** What a player's bets on settled markets of one outcome count, in paise. */
export interface PlayerWagering {
  readonly userId: string
  /** Towards the bonus in play: bonus-wallet bets placed while it was active (src/domain/bonus.ts). */
  readonly bonus: number
  /** The player's own play: main-wallet bets (what a referral reward waits for). */
  readonly own: number
}

/**
 * What the settled markets of one outcome (`markets`: their ids and types,
 * every one of them settled or voided) count for each player who bet there:
 * the worst case over all of them together (`wageringOfEvent`), of the bets
 * each rule covers. Bets of voided markets are void and count nothing.
 */
export const wageringOf = (sql: SqlClient.SqlClient, markets: ReadonlyArray<{ readonly id: string; readonly name: string; readonly marketType: MarketType }>) =>
  Effect.gen(function*() {
    const ids = markets.map((market) => market.id)
    const bets = yield* sql`
      SELECT b.user_id, b.market_id, b.selection_id, b.side, b.odds::text AS odds, b.size::text AS size, b.stake, b.matches, b.wallet,
             (b.wallet = 2 AND bo.activated_at IS NOT NULL AND b.created_at >= bo.activated_at) AS bonus_covered
        FROM bets b LEFT JOIN bonuses bo ON bo.user_id = b.user_id AND bo.status = 'active'
       WHERE b.market_id IN ${sql.in(ids)} AND b.status IN ('won', 'lost')
    `.pipe(decodeRows(SettledBet))
    if (bets.length === 0) return []
    const runners = yield* sql`SELECT market_id, selection_id, name FROM runners WHERE market_id IN ${sql.in(ids)} ORDER BY market_id, sort`.pipe(decodeRows(Runner))
    const outcomes = new Map(markets.map((market) => [market.id, outcomesOf({ ...market, runners: runners.filter((r) => r.marketId === market.id) })]))
    const byUser = new Map<string, Array<typeof SettledBet.Type>>()
    for (const bet of bets) byUser.set(bet.userId, [...(byUser.get(bet.userId) ?? []), bet])
    return [...byUser].map(([userId, own]): PlayerWagering => {
      const counted = (covers: (bet: typeof SettledBet.Type) => boolean) =>
        wageringOfEvent(markets.map((market): OutcomeMarket & { covered: ReadonlyArray<Position> } => {
          const placed = own.filter((bet) => bet.marketId === market.id)
          return {
            type: market.marketType,
            runners: outcomes.get(market.id)!,
            // What of each settled bet was matched (what waited was cancelled at settlement).
            bets: placed.flatMap(matchedPositions),
            covered: placed.filter(covers).flatMap(matchedPositions)
          }
        }))
      return { userId, bonus: counted((bet) => bet.bonusCovered), own: counted((bet) => bet.wallet === 1) }
    })
  })
