import { Context, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { validPrice } from "../../src/domain/betting.ts"
import { matchOffers, mergeMatches, offersOf } from "../../src/domain/matching.ts"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import { type CancelBetPayload, type EditBetPayload, PlacedBet } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { decodeRows } from "../db/rows.ts"
import { Idempotency } from "../ledger/Idempotency.ts"
import { decidingBook, OddsFeed } from "../odds/OddsFeed.ts"
import { Admission } from "../protection/Admission.ts"
import { BetProtectionInputs } from "../protection/rules.ts"
import { type BetRecord, limitsFrom, viewOfBet } from "./Bets.ts"
import { Positions, withoutWaiting } from "./Positions.ts"

export const WAITING_MESSAGES = {
  noSuchBet: "No such bet.",
  notWaiting: "Nothing of this bet is waiting any more: it was matched, cancelled or settled.",
  badStake: "Stake must be an amount in rupees with at most two decimals.",
  badPrice: "Those odds are not valid for this market.",
  suspended: "This market is suspended. Please try again when it reopens.",
  closed: "This market is closed for betting."
} as const

/** Where a bet is, before any lock: its player and market, and the delay a change of its price waits out in play. */
const BetPlace = Schema.Struct({
  userId: Schema.String,
  marketId: Schema.String,
  externalId: Schema.String,
  eventStatus: Schema.String,
  delaySeconds: Schema.NullOr(Schema.Int)
})

/**
 * The player's own changes to what waits of an exchange bet: cancelled (all or part) or moved to another price,
 * each under its Idempotency-Key and through the ledger (`Positions.change`). A cancel is allowed to any player
 * (it only takes risk away); a new price is a new bet on the market, so it waits out the in-play delay, needs the
 * money it adds to the worst case and passes the loss limits.
 */
export class Waiting extends Context.Service<Waiting, {
  cancel(userId: string, payload: CancelBetPayload, idempotencyKey: string | undefined): Effect.Effect<PlacedBet, ApiError | SqlError.SqlError>
  edit(userId: string, payload: EditBetPayload, idempotencyKey: string | undefined): Effect.Effect<PlacedBet, ApiError | SqlError.SqlError>
}>()("khel/Waiting") {
  static readonly layer = Layer.effect(
    Waiting,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const idempotency = yield* Idempotency
      const feed = yield* OddsFeed
      const admission = yield* Admission
      const positions = yield* Positions

      /** The bet a request names, before any lock: refused unless it is the player's. */
      const placeOf = (userId: string, betId: string) =>
        Effect.gen(function*() {
          const [place] = yield* sql`
            SELECT b.user_id, b.market_id, m.external_id, e.status AS event_status,
                   (SELECT bl.in_play_delay_seconds ${limitsFrom(sql, { sport: sql`s.id`, league: sql`lg.id`, event: sql`e.id` })}) AS delay_seconds
              FROM bets b JOIN markets m ON m.id = b.market_id JOIN events e ON e.id = b.event_id
              JOIN leagues lg ON lg.id = e.league_id JOIN sports s ON s.id = lg.sport_id
             WHERE b.id = ${betId}
          `.pipe(decodeRows(BetPlace))
          if (!place || place.userId !== userId) return yield* refuse("NotFound", WAITING_MESSAGES.noSuchBet)
          return place
        })

      const waitingOne = (bets: ReadonlyArray<BetRecord>, betId: string) =>
        Effect.gen(function*() {
          const bet = bets.find((b) => b.id === betId)
          if (!bet || bet.unmatched === 0) return yield* refuse("NotWaiting", WAITING_MESSAGES.notWaiting)
          return bet
        })

      const answer = (result: { readonly changed: ReadonlyArray<BetRecord>; readonly exposure: number | undefined }) =>
        ({ bet: viewOfBet(result.changed[0]!), marketExposure: toRupees(result.exposure ?? 0) }) satisfies PlacedBet

      const cancel = Effect.fn("Waiting.cancel")(function*(userId: string, payload: CancelBetPayload, idempotencyKey: string | undefined) {
        const amount = payload.stake === undefined ? undefined : toPaise(payload.stake)
        if (amount === 0 || (payload.stake !== undefined && amount === undefined)) return yield* refuse("InvalidInput", WAITING_MESSAGES.badStake)
        const place = yield* placeOf(userId, payload.betId)
        return yield* idempotency.run(
          { owner: userId, key: idempotencyKey, request: { cancel: payload }, response: PlacedBet },
          positions.change(userId, place.marketId, (_, bets) =>
            Effect.gen(function*() {
              const bet = yield* waitingOne(bets, payload.betId)
              // What waits now, if less than asked (a part was matched meanwhile): the matched part stays matched.
              return [withoutWaiting(bet, Math.min(amount ?? bet.unmatched, bet.unmatched))]
            }), { reference: `bet:${payload.betId}`, what: "unmatched bet cancelled" }).pipe(Effect.map(answer))
        )
      })

      const edit = Effect.fn("Waiting.edit")(function*(userId: string, payload: EditBetPayload, idempotencyKey: string | undefined) {
        if (!validPrice("EXCHANGE", payload.odds)) return yield* refuse("InvalidInput", WAITING_MESSAGES.badPrice)
        const place = yield* placeOf(userId, payload.betId)
        // A new price in play waits out the bet delay, as a new bet does.
        const delay = place.eventStatus === "live" ? place.delaySeconds ?? 0 : 0
        if (delay > 0) yield* Effect.sleep(Duration.seconds(delay))
        return yield* idempotency.run(
          { owner: userId, key: idempotencyKey, request: { edit: payload }, response: PlacedBet },
          positions.change(userId, place.marketId, (market, bets) =>
            Effect.gen(function*() {
              const bet = yield* waitingOne(bets, payload.betId)
              if (market.marketType !== "EXCHANGE") return yield* refuse("NotWaiting", WAITING_MESSAGES.notWaiting)
              if (market.status === "SUSPENDED") return yield* refuse("MarketSuspended", WAITING_MESSAGES.suspended)
              if (market.status !== "OPEN" || !["scheduled", "live"].includes(market.eventStatus)) return yield* refuse("MarketClosed", WAITING_MESSAGES.closed)
              // With several servers, the book as stored (the one every server checks a price against).
              const book = yield* decidingBook(sql, feed, market.externalId)
              if (book?.status === "SUSPENDED") return yield* refuse("MarketSuspended", WAITING_MESSAGES.suspended)
              if (!book || book.status !== "OPEN") return yield* refuse("MarketClosed", WAITING_MESSAGES.closed)
              const runner = book.runners.find((r) => r.selectionId === bet.selectionId)
              const matched = matchOffers(offersOf(bet.side, (bet.side === "back" ? runner?.back : runner?.lay) ?? []), bet.side, payload.odds, bet.unmatched)
              return [{ ...bet, odds: payload.odds, unmatched: matched.unmatched, matches: mergeMatches([...bet.matches, ...matched.matches]), bookVersion: book.version }]
            }), { reference: `bet:${payload.betId}`, what: `unmatched bet moved to ${payload.odds}` }, (added) =>
            // A new price is a new bet on the market: a closed account makes none, and what it adds must fit the loss limits.
            sql`SELECT * FROM bet_inputs(${userId}, ${place.marketId}, ${admission.betInputArgs()})`.pipe(
              decodeRows(BetProtectionInputs),
              Effect.flatMap(([inputs]) => admission.admitBet(inputs!, userId, added))
            )).pipe(Effect.map(answer))
        )
      })

      return Waiting.of({ cancel, edit })
    })
  )
}
