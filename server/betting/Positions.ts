import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { marketExposure } from "../../src/domain/betting.ts"
import { newlyMatched, positionsOf } from "../../src/domain/matching.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { type AccountRef, Ledger } from "../ledger/Ledger.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { betFigures, type BetRecord, BetRow, betSelect, recordOf } from "./Bets.ts"

/** The market a change locks, with what deciding it needs. */
export const LockedMarket = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  marketType: MarketType,
  status: Schema.String,
  eventStatus: Schema.String,
  runners: Schema.NullOr(Schema.Array(Schema.String))
})
export type LockedMarket = typeof LockedMarket.Type

const Held = Schema.Struct({ wallet: Schema.Literals([1, 2]), exposure: Paise })

/**
 * A bet's new state; a new price names the book version it was decided against (what waits matches only a later one).
 * A bet not among the open ones is a new bet, written as it is (a cash out's hedge, marked with its quote).
 */
export type Change = BetRecord & { readonly bookVersion?: number }

/** What a change is, for the ledger: the reference and the words of the posting ("Exposure released: …"), its kind if not a bet's. */
export interface Describe {
  readonly reference: string
  readonly what: string
  readonly kind?: string
}

/** What waits of a bet taken away: cancelled, and the bet closed as cancelled when nothing of it was matched. */
export const withoutWaiting = (bet: BetRecord, amount: number): BetRecord => {
  const unmatched = bet.unmatched - amount
  const closed = unmatched === 0 && bet.matches.length === 0
  return { ...bet, unmatched, status: closed ? "cancelled" : "open", profitLoss: closed ? 0 : null }
}

/**
 * A player's open bets on one market changed after they were placed: matched, cancelled, moved to another price, or
 * joined by new ones (a cash out's hedges). A change locks what a bet locks — the player (`FOR NO KEY UPDATE`), then
 * the market (`FOR KEY SHARE`) — and reads the player's open bets on the market after the locks, so it is serialised
 * with the player's bets and with every other change (a cancel racing a match: whichever locks first acts, the other
 * acts on what it left), and waits for the market's settlement. The market's hold follows each change through the ledger.
 */
export class Positions extends Context.Service<Positions, {
  /**
   * `decide` gets the player's open bets on the market (locked, oldest first) and the market, and gives the new state
   * of those it changes. The market's hold becomes the worst case of the open bets as changed
   * (src/domain/betting.ts); the difference moves between the player's balance and exposure in one posting, refused
   * whole on an overdraft. A change that adds to the worst case (a new price) must pass `admit`; matching and
   * cancelling never add to it. Gives the market, the bets changed, the new hold (paise) and its wallet (none when
   * nothing changed).
   */
  change(
    userId: string,
    marketId: string,
    decide: (market: LockedMarket, bets: ReadonlyArray<BetRecord>) => Effect.Effect<ReadonlyArray<Change>, ApiError | SqlError.SqlError>,
    describe: Describe,
    admit?: (added: number) => Effect.Effect<void, ApiError | SqlError.SqlError>
  ): Effect.Effect<{ readonly market: LockedMarket; readonly changed: ReadonlyArray<Change>; readonly exposure: number | undefined; readonly wallet?: 1 | 2 }, ApiError | SqlError.SqlError>
}>()("khel/Positions") {
  static readonly layer = Layer.effect(
    Positions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const realtime = yield* Realtime
      const feed = yield* OddsFeed

      const change = (
        userId: string,
        marketId: string,
        decide: (market: LockedMarket, bets: ReadonlyArray<BetRecord>) => Effect.Effect<ReadonlyArray<Change>, ApiError | SqlError.SqlError>,
        describe: Describe,
        admit?: (added: number) => Effect.Effect<void, ApiError | SqlError.SqlError>
      ) =>
        sql.withTransaction(Effect.gen(function*() {
          const [market] = yield* sql`
            SELECT m.id, m.external_id, m.market_type, m.status, e.status AS event_status,
                   (SELECT json_agg(r.selection_id ORDER BY r.sort) FROM runners r WHERE r.market_id = m.id) AS runners
              FROM users u, markets m JOIN events e ON e.id = m.event_id
             WHERE u.id = ${userId} AND m.id = ${marketId}
               FOR NO KEY UPDATE OF u FOR KEY SHARE OF m
          `.pipe(decodeRows(LockedMarket))
          if (!market) return yield* refuse("NotFound", "No such bet.")
          const bets = (yield* sql`
            ${betSelect(sql)}
             WHERE b.user_id = ${userId} AND b.market_id = ${marketId} AND b.status = 'open'
             ORDER BY b.created_at, b.id
               FOR UPDATE OF b
          `.pipe(decodeRows(BetRow))).map(recordOf)
          const changed = yield* decide(market, bets)
          if (changed.length === 0) return { market, changed, exposure: undefined }
          const [held] = yield* sql`SELECT wallet, exposure FROM market_exposures WHERE user_id = ${userId} AND market_id = ${marketId}`.pipe(decodeRows(Held))
          const byId = new Map(changed.map((bet) => [bet.id, bet]))
          const added = changed.filter((bet) => !bets.some((open) => open.id === bet.id))
          const open = [...bets.map((bet) => byId.get(bet.id) ?? bet), ...added].filter((bet) => bet.status === "open")
          const runners = market.runners ?? []
          const before = held ? Number(held.exposure) : marketExposure(market.marketType, runners, bets.flatMap(positionsOf))
          const after = marketExposure(market.marketType, runners, open.flatMap(positionsOf))
          const delta = after - before
          if (delta > 0) {
            if (!admit) return yield* Effect.die(new Error(`${describe.what} would add ${delta} paise to the worst case`))
            yield* admit(delta)
          }
          const wallet = held?.wallet ?? 1
          if (delta !== 0) {
            yield* ledger.post({
              kind: describe.kind ?? (delta > 0 ? "bet.exposure" : "bet.release"),
              userId,
              reference: describe.reference,
              description: delta > 0 ? `Exposure held: ${describe.what}` : `Exposure released: ${describe.what}`,
              legs: [
                { account: { user: userId, kind: wallet === 2 ? "bonus" : "main" } as AccountRef, amount: -delta },
                { account: { user: userId, kind: wallet === 2 ? "bonus_exposure" : "exposure" } as AccountRef, amount: delta }
              ]
            }).pipe(Effect.catchTag("InsufficientFunds", () => refuse("InsufficientBalance", "Insufficient balance to place this bet.")))
          }
          yield* sql`
            INSERT INTO market_exposures (user_id, market_id, wallet, exposure) VALUES (${userId}, ${marketId}, ${wallet}, ${after})
            ON CONFLICT (user_id, market_id) DO UPDATE SET exposure = EXCLUDED.exposure
          `
          const previous = new Map(bets.map((bet) => [bet.id, bet]))
          for (const bet of changed) {
            // What matched just now came off the ladder the players see.
            const taken = newlyMatched(previous.get(bet.id)?.matches ?? [], bet.matches)
            if (taken.length > 0 && market.marketType === "EXCHANGE") {
              yield* sql.afterCommit(feed.take(market.externalId, { selectionId: bet.selectionId, side: bet.side, matches: taken }))
            }
            const cancelled = bet.stake - bet.unmatched - bet.matches.reduce((sum, match) => sum + match.stake, 0)
            if (!previous.has(bet.id)) {
              const figures = betFigures(market.marketType, bet)
              yield* sql`
                INSERT INTO bets (id, user_id, market_id, event_id, selection_id, selection_name, side, market_type, odds, size, stake,
                                  profit, liability, wallet, in_play, created_at, unmatched, cancelled, matches, persistence,
                                  status, profit_loss, book_version, cash_out_quote)
                VALUES (${bet.id}, ${userId}, ${marketId}, ${bet.eventId}, ${bet.selectionId}, ${bet.selectionName}, ${bet.side}, ${market.marketType},
                        ${bet.odds}, ${bet.size}, ${bet.stake}, ${figures.profit}, ${figures.liability}, ${wallet}, ${market.eventStatus === "live"},
                        ${bet.createdAt}, ${bet.unmatched}, ${cancelled}, ${JSON.stringify(bet.matches)}::jsonb, ${bet.persistence},
                        ${bet.status}, ${bet.profitLoss}, ${bet.bookVersion ?? null}, ${bet.cashOutQuote ?? null})
              `
              continue
            }
            yield* sql`
              UPDATE bets SET odds = ${bet.odds}, unmatched = ${bet.unmatched}, cancelled = ${cancelled}, matches = ${JSON.stringify(bet.matches)}::jsonb,
                              status = ${bet.status}, profit_loss = ${bet.profitLoss}, settled_at = ${bet.status === "open" ? null : sql`now()`},
                              book_version = coalesce(${bet.bookVersion ?? null}::bigint, book_version)
               WHERE id = ${bet.id}
            `
          }
          // My Bets changes even when no money moved.
          if (delta === 0) yield* sql.afterCommit(realtime.notifyUser(userId, "bet"))
          if (changed.length > 0) yield* sql.afterCommit(realtime.bookChanged(market.externalId))
          return { market, changed, exposure: after, wallet }
        }))

      return Positions.of({ change })
    })
  )
}
