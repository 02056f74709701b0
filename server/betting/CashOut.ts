import { createHmac, randomUUID, timingSafeEqual } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type CashOutQuote as Quoted, honoursQuote, type NoQuote, QUOTE_SECONDS, quoteCashOut, type RunnerOffers } from "../../src/domain/cashOut.ts"
import { offersOf, positionsOf } from "../../src/domain/matching.ts"
import { toRupees } from "../../src/domain/money.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import { CashOutAnswer, type CashOutPayload, type CashOutQuote } from "../../src/schema/cashOut.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Roles } from "../../src/schema/user.ts"
import { decodeFirst, decodeRows } from "../db/rows.ts"
import { serverKey } from "../db/serverKeys.ts"
import { Idempotency } from "../ledger/Idempotency.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { decidingBook, OddsFeed } from "../odds/OddsFeed.ts"
import { Admission } from "../protection/Admission.ts"
import { BetProtectionInputs } from "../protection/rules.ts"
import { type BetRecord, BetRow, betSelect, limitsFrom, recordOf, viewOfBet } from "./Bets.ts"
import { type Change, Positions } from "./Positions.ts"

/** The market a cash out is about, with what its hedge bets are written with. */
const CashOutMarket = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  status: Schema.String,
  eventId: Schema.String,
  eventName: Schema.String,
  eventSlug: Schema.String,
  eventStatus: Schema.String,
  sportSlug: Schema.String,
  leagueSlug: Schema.String,
  runners: Schema.NullOr(Schema.Array(Schema.Struct({ selectionId: Schema.String, name: Schema.String }))),
  delaySeconds: Schema.NullOr(Schema.Int)
})
export type CashOutMarket = typeof CashOutMarket.Type

/** What a quote id carries, signed: whose quote of what, its value (paise) and until when it holds (ms). */
const QuoteToken = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  marketId: Schema.String,
  fraction: Schema.Finite,
  value: Schema.Int,
  expiresAt: Schema.Int
})
type QuoteToken = typeof QuoteToken.Type
const decodeToken = Schema.decodeUnknownOption(Schema.fromJsonString(QuoteToken))

export const CASH_OUT_MESSAGES = {
  notPlayer: "Only player accounts can cash out.",
  unknownMarket: "This market is not available.",
  suspended: "This market is suspended. Please try again when it reopens.",
  closed: "This market is closed for betting.",
  badQuote: "This cash out quote is not valid. Please ask for a new one.",
  fancy: "Fancy markets cannot be cashed out.",
  flat: "You have nothing to cash out on this market.",
  notEnoughOnOffer: "There is not enough on offer to cash out right now. Please try again shortly."
} as const

const noQuote = (reason: NoQuote) =>
  reason === "flat" ? refuse("NothingToCashOut", CASH_OUT_MESSAGES.flat) : refuse("CashOutUnavailable", CASH_OUT_MESSAGES[reason])

/** The book's ladder as the hedge takes it: each side's levels as offers in paise, best first. */
const laddersOf = (book: MarketBook): Array<RunnerOffers> =>
  book.runners.map((runner) => ({ selectionId: runner.selectionId, back: offersOf("back", runner.back), lay: offersOf("lay", runner.lay) }))

/**
 * Cash out: quotes from the player's matched bets on a market and its ladder now (src/domain/cashOut.ts), and
 * acceptance, which quotes again from the book of that moment (after the in-play delay, as a bet) and writes the
 * hedges as bets through `Positions.change` — under the player's and the market's locks, with the market's hold and
 * the ledger in the same transaction — unless the value fell below the quote by more than the tolerance (then the
 * answer is the new quote and nothing is written). A quote is stateless: its id is signed with a key all servers share.
 */
export class CashOut extends Context.Service<CashOut, {
  quote(userId: string, marketId: string, fraction: number): Effect.Effect<CashOutQuote, ApiError | SqlError.SqlError>
  accept(user: { readonly id: string; readonly role: number }, payload: CashOutPayload, idempotencyKey: string | undefined): Effect.Effect<CashOutAnswer, ApiError | SqlError.SqlError>
  /**
   * An automatic cash out of the whole position on a market (feed id), when `due` says so of its value (paise) now and
   * again under the locks, where `claim` (in the same transaction) must also succeed: the rule it fires, taken once.
   * Gives what was locked, or nothing when it did not fire.
   */
  auto(
    userId: string,
    marketId: string,
    due: (value: number) => boolean,
    claim: Effect.Effect<boolean, SqlError.SqlError>
  ): Effect.Effect<{ readonly value: number; readonly marketName: string } | undefined, ApiError | SqlError.SqlError>
  /** A market (feed id) as cash out reads it; NotFound when there is none. */
  market(marketId: string): Effect.Effect<CashOutMarket, ApiError | SqlError.SqlError>
}>()("khel/CashOut") {
  static readonly layer = Layer.effect(
    CashOut,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const feed = yield* OddsFeed
      const positions = yield* Positions
      const idempotency = yield* Idempotency
      const ledger = yield* Ledger
      const admission = yield* Admission

      const secret = yield* serverKey("cash-out")
      const mac = (body: string) => createHmac("sha256", secret).update(body).digest()

      const sign = (token: QuoteToken) => {
        const body = Buffer.from(JSON.stringify(token)).toString("base64url")
        return `${body}.${mac(body).toString("base64url")}`
      }
      const verify = (quoteId: string): QuoteToken | undefined => {
        const [body, signature, extra] = quoteId.split(".")
        if (!body || !signature || extra !== undefined) return undefined
        const given = Buffer.from(signature, "base64url")
        const expected = mac(body)
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
        const token = decodeToken(Buffer.from(body, "base64url").toString())
        return token._tag === "Some" ? token.value : undefined
      }

      const marketOf = (externalId: string) =>
        sql`
          SELECT m.id, m.external_id, m.name, m.market_type, m.status,
                 e.id AS event_id, e.name AS event_name, e.slug AS event_slug, e.status AS event_status,
                 s.slug AS sport_slug, l.slug AS league_slug,
                 (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                    FROM runners r WHERE r.market_id = m.id) AS runners,
                 (SELECT bl.in_play_delay_seconds ${limitsFrom(sql, { sport: sql`s.id`, league: sql`l.id`, event: sql`e.id` })}) AS delay_seconds
            FROM markets m
            JOIN events e ON e.id = m.event_id
            JOIN leagues l ON l.id = e.league_id
            JOIN sports s ON s.id = l.sport_id
           WHERE m.external_id = ${externalId}
        `.pipe(decodeFirst(CashOutMarket), Effect.flatMap((market) => (market ? Effect.succeed(market) : refuse("NotFound", CASH_OUT_MESSAGES.unknownMarket))))

      const bookOf = (externalId: string) => decidingBook(sql, feed, externalId)

      /** Refused unless the market takes bets now, by its row and by its book. */
      const open = (market: { readonly status: string; readonly eventStatus: string }, book: MarketBook | undefined) =>
        Effect.gen(function*() {
          if (market.status === "SUSPENDED" || book?.status === "SUSPENDED") return yield* refuse("MarketSuspended", CASH_OUT_MESSAGES.suspended)
          if (market.status !== "OPEN" || !["scheduled", "live"].includes(market.eventStatus) || book?.status !== "OPEN") {
            return yield* refuse("MarketClosed", CASH_OUT_MESSAGES.closed)
          }
          return book
        })

      /** The quote of `fraction` of these open bets against the book, or why there is none. */
      const quoteOf = (market: CashOutMarket, bets: ReadonlyArray<BetRecord>, book: MarketBook, fraction: number) => {
        const runners = (market.runners ?? []).map((runner) => runner.selectionId)
        const quoted = quoteCashOut(market.marketType, runners, bets.flatMap(positionsOf), laddersOf(book), fraction)
        return typeof quoted === "string" ? noQuote(quoted) : Effect.succeed(quoted)
      }

      /** A quote as the player sees it, with its signed id. */
      const wire = (userId: string, market: CashOutMarket, fraction: number, quoted: Quoted) =>
        Effect.map(Clock.currentTimeMillis, (now): CashOutQuote => {
          const expiresAt = now + QUOTE_SECONDS * 1000
          return {
            marketId: market.externalId,
            fraction,
            value: toRupees(quoted.value),
            perRunner: quoted.perRunner.map((r) => ({ selectionId: r.selectionId, before: toRupees(r.before), after: toRupees(r.after) })),
            quoteId: sign({ id: randomUUID(), userId, marketId: market.externalId, fraction, value: quoted.value, expiresAt }),
            expiresAt: new Date(expiresAt).toISOString()
          }
        })

      /** The quote now, read without locks (what acceptance decides on is read again under them). */
      const quoteNow = (userId: string, market: CashOutMarket, fraction: number) =>
        Effect.gen(function*() {
          if (market.marketType === "FANCY") return yield* noQuote("fancy")
          const book = yield* open(market, yield* bookOf(market.externalId))
          const bets = (yield* sql`
            ${betSelect(sql)} WHERE b.user_id = ${userId} AND b.market_id = ${market.id} AND b.status = 'open' ORDER BY b.created_at, b.id
          `.pipe(decodeRows(BetRow))).map(recordOf)
          return yield* quoteOf(market, bets, book, fraction)
        })

      const quote = Effect.fn("CashOut.quote")(function*(userId: string, marketId: string, fraction: number) {
        const market = yield* marketOf(marketId)
        return yield* wire(userId, market, fraction, yield* quoteNow(userId, market, fraction))
      })

      /** The hedges as bets of the player's, marked with the quote they took. */
      const hedgeBets = (market: CashOutMarket, quoted: Quoted, quoteId: string, at: Date): Array<Change> =>
        quoted.hedges.map((hedge) => ({
          id: randomUUID(),
          selectionId: hedge.selectionId,
          selectionName: market.runners?.find((r) => r.selectionId === hedge.selectionId)?.name ?? hedge.selectionId,
          side: hedge.side,
          // The price asked: the worst of the levels taken.
          odds: hedge.matches[hedge.matches.length - 1]!.odds,
          size: null,
          stake: hedge.matches.reduce((sum, match) => sum + match.stake, 0),
          unmatched: 0,
          matches: hedge.matches,
          persistence: "keep",
          marketType: market.marketType,
          marketExternalId: market.externalId,
          marketName: market.name,
          status: "open",
          profitLoss: null,
          createdAt: at,
          eventId: market.eventId,
          eventName: market.eventName,
          eventSlug: market.eventSlug,
          sportSlug: market.sportSlug,
          leagueSlug: market.leagueSlug,
          cashOutQuote: quoteId
        }))

      /**
       * Under the position's locks (`Positions.change`), the quote of this moment's book; `take` decides, in the same
       * transaction, whether its hedges are written (`done`) or nothing is.
       */
      const hedgeNow = (
        userId: string,
        market: CashOutMarket,
        fraction: number,
        quoteId: string,
        take: (now: Quoted) => Effect.Effect<boolean, ApiError | SqlError.SqlError>
      ) =>
        Effect.gen(function*() {
          let quoted: Quoted | undefined
          let taken = false
          const done = yield* positions.change(userId, market.id, (locked, bets) =>
            Effect.gen(function*() {
              yield* admission.admitPlay(userId)
              const book = yield* open(locked, yield* bookOf(market.externalId))
              const now = yield* quoteOf(market, bets, book, fraction)
              quoted = now
              if (!(yield* take(now))) return []
              taken = true
              const at = new Date(yield* Clock.currentTimeMillis)
              return hedgeBets(market, now, quoteId, at).map((bet) => ({ ...bet, bookVersion: book.version }))
            }), { reference: `cash-out:${quoteId}`, what: `cash out on ${market.name}`, kind: "bet.cashout" }, (added) =>
            // Rounding of the hedge's paise may add a paisa to the worst case: a closed account or a loss limit refuses it.
            sql`SELECT * FROM bet_inputs(${userId}, ${market.id}, ${admission.betInputArgs()})`.pipe(
              decodeRows(BetProtectionInputs),
              Effect.flatMap(([inputs]) => admission.admitBet(inputs!, userId, added))
            ))
          return { now: quoted!, done: taken ? done : undefined }
        })

      const auto = Effect.fn("CashOut.auto")(function*(
        userId: string,
        marketId: string,
        due: (value: number) => boolean,
        claim: Effect.Effect<boolean, SqlError.SqlError>
      ) {
        const market = yield* marketOf(marketId)
        // Read without locks first: most price changes leave a rule far from firing.
        if (!due((yield* quoteNow(userId, market, 1)).value)) return undefined
        const { now, done } = yield* hedgeNow(userId, market, 1, randomUUID(), (now) => (due(now.value) ? claim : Effect.succeed(false)))
        return done ? { value: now.value, marketName: market.name } : undefined
      })

      const accept = Effect.fn("CashOut.accept")(function*(user: { readonly id: string; readonly role: number }, payload: CashOutPayload, idempotencyKey: string | undefined) {
        if (user.role !== Roles.PLAYER && user.role !== Roles.CREDIT_PLAYER) return yield* refuse("Refused", CASH_OUT_MESSAGES.notPlayer)
        const token = verify(payload.quoteId)
        if (!token || token.userId !== user.id || token.marketId !== payload.marketId || token.fraction !== payload.fraction) {
          return yield* refuse("InvalidInput", CASH_OUT_MESSAGES.badQuote)
        }
        const market = yield* marketOf(payload.marketId)
        // A closed account is told at once; the write checks again under the player's lock.
        yield* admission.admitPlay(user.id)
        // In play, a cash out waits out the bet delay and is decided on the book of that moment, as a bet is.
        const delay = market.eventStatus === "live" ? market.delaySeconds ?? 0 : 0
        if (delay > 0) yield* Effect.sleep(Duration.seconds(delay))

        const write = Effect.gen(function*() {
          const expired = (yield* Clock.currentTimeMillis) > token.expiresAt
          const { now, done } = yield* hedgeNow(user.id, market, payload.fraction, token.id, (now) => Effect.succeed(!expired && honoursQuote(token.value, now.value)))
          if (!done) return { outcome: "requoted" as const, quote: yield* wire(user.id, market, payload.fraction, now) }
          const balances = yield* ledger.balances(user.id)
          return {
            outcome: "cashedOut" as const,
            marketId: market.externalId,
            fraction: payload.fraction,
            value: toRupees(now.value),
            bets: done.changed.map(viewOfBet),
            marketExposure: toRupees(done.exposure ?? 0),
            balance: toRupees(done.wallet === 2 ? balances.bonus : balances.main)
          }
        })
        return yield* idempotency.run({ owner: user.id, key: idempotencyKey, request: { cashOut: payload }, response: CashOutAnswer }, write)
      })

      return CashOut.of({ quote, accept, auto, market: marketOf })
    })
  )
}
