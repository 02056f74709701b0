import { randomUUID } from "node:crypto"
import { Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { backProfit, isSameOrBetter, marketExposure, type Position, validPrice } from "../../src/domain/betting.ts"
import { formatAmount, toPaise, toRupees } from "../../src/domain/money.ts"
import type { Bet } from "../../src/schema/bets.ts"
import { type BetSetting, type MarketBook, type OddsChangeRule, type PlaceBetPayload, PlacedBet } from "../../src/schema/betting.ts"
import { type ApiError, badRequest, notFound, unprocessable } from "../../src/schema/envelope.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Roles } from "../../src/schema/user.ts"
import { decodeRows, Paise } from "../db/rows.ts"
import { ClaimRow, Idempotency } from "../ledger/Idempotency.ts"
import { type AccountRef, Ledger } from "../ledger/Ledger.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Protection, ProtectionRules } from "../protection/Protection.ts"
import { Realtime } from "../realtime/Realtime.ts"

/** Which endpoint a bet came through: each takes its own kind of market. */
export type BetChannel = "sport" | "racing" | "fancy"

const Runner = Schema.Struct({ selectionId: Schema.String, name: Schema.String })

/** The market with everything placement reads but the prices. */
const MarketInfo = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  status: Schema.String,
  eventId: Schema.String,
  eventName: Schema.String,
  eventSlug: Schema.String,
  eventStatus: Schema.String,
  leagueId: Schema.String,
  leagueSlug: Schema.String,
  sportId: Schema.String,
  sportSlug: Schema.String,
  isRacing: Schema.Boolean,
  runners: Schema.NullOr(Schema.Array(Runner)),
  /** The most specific stake limits (bet_limits), as JSON numbers of paise. */
  limits: Schema.NullOr(Schema.Struct({ minStake: Schema.Int, maxStake: Schema.Int, inPlayDelaySeconds: Schema.Int })),
  acceptAnyOdds: Schema.NullOr(Schema.Boolean)
})
type MarketInfo = typeof MarketInfo.Type

const Limits = Schema.Struct({ minStake: Paise, maxStake: Paise, inPlayDelaySeconds: Schema.Int })
type Limits = typeof Limits.Type

const Wallet = Schema.Literals([1, 2])

/**
 * The bet's first statement, once the key is claimed: the player and the market as locked (none when either is
 * gone), the player's open bets on the market (JSON numbers) and what the market holds of theirs, their loss rules.
 */
const Started = Schema.Struct({
  wallet: Schema.NullOr(Wallet),
  userStatus: Schema.NullOr(Schema.String),
  marketStatus: Schema.NullOr(Schema.String),
  eventStatus: Schema.NullOr(Schema.String),
  at: Schema.NullOr(Schema.Date),
  openBets: Schema.NullOr(Schema.Array(Schema.Struct({
    selectionId: Schema.String,
    side: Schema.Literals(["back", "lay"]),
    odds: Schema.Finite,
    size: Schema.NullOr(Schema.Finite),
    stake: Schema.Int
  }))),
  heldWallet: Schema.NullOr(Wallet),
  heldExposure: Schema.NullOr(Paise),
  ...ProtectionRules.fields
})

export const MESSAGES = {
  unknownMarket: "This market is not available.",
  unknownSelection: "That selection is not part of this market.",
  suspended: "This market is suspended. Please try again when it reopens.",
  closed: "This market is closed for betting.",
  badPrice: "Those odds are not valid for this market.",
  badStake: "Stake must be an amount in rupees with at most two decimals.",
  noPrice: "There is no price on offer for that selection right now.",
  oddsChanged: "Odds changed. Please check the new price and place your bet again.",
  insufficient: "Insufficient balance to place this bet.",
  notPlayer: "Only player accounts can place bets.",
  wrongChannelFancy: "Fancy markets take bets through fancy-bet-sport.",
  wrongChannelNotFancy: "This is not a fancy market.",
  wrongChannelRacing: "Racing markets take bets through bet-racing.",
  wrongChannelNotRacing: "This is not a racing market."
} as const

/** When no row of bet_limits applies (the migration adds a default row). */
const DEFAULT_LIMITS: Limits = { minStake: 10_000n, maxStake: 50_000_000n, inPlayDelaySeconds: 0 }

const minStakeMessage = (paise: bigint) => `Minimum stake is ₹${formatAmount(toRupees(paise))}.`
const maxStakeMessage = (paise: bigint) => `Maximum stake is ₹${formatAmount(toRupees(paise))}.`

/**
 * Placing bets. Everything is checked again inside one database
 * transaction (with the Idempotency-Key record): the market is open, the
 * stake within limits, the price the same or better than asked (or any, by
 * the player's choice), and what the market's worst case grows by is moved
 * from the player's balance to their exposure. A bet that does not add risk
 * is accepted whatever the balance.
 */
export class Betting extends Context.Service<Betting, {
  place(
    user: { readonly id: string; readonly role: number },
    channel: BetChannel,
    payload: PlaceBetPayload,
    idempotencyKey: string | undefined
  ): Effect.Effect<PlacedBet, ApiError | SqlError.SqlError>
  setting(userId: string, scope: { readonly sportsId?: string | undefined; readonly leagueId?: string | undefined; readonly eventId?: string | undefined }): Effect.Effect<BetSetting, SqlError.SqlError>
  setOddsChange(userId: string, rule: OddsChangeRule): Effect.Effect<void, SqlError.SqlError>
}>()("khel/Betting") {
  static readonly layer = Layer.effect(
    Betting,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const idempotency = yield* Idempotency
      const feed = yield* OddsFeed
      const realtime = yield* Realtime
      const protection = yield* Protection

      /**
       * The market with everything placement reads but the prices (none when there is no such market), and the
       * player's protection state (`Protection.admitPlay`'s read): one round trip.
       */
      const marketInfo = (externalId: string, userId: string) =>
        sql`
          SELECT m.id, m.external_id, m.name, m.market_type, m.status,
                 e.id AS event_id, e.name AS event_name, e.slug AS event_slug, e.status AS event_status,
                 l.id AS league_id, l.slug AS league_slug, s.id AS sport_id, s.slug AS sport_slug, s.is_racing,
                 (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                    FROM runners r WHERE r.market_id = m.id) AS runners,
                 (SELECT json_build_object('minStake', b.min_stake, 'maxStake', b.max_stake, 'inPlayDelaySeconds', b.in_play_delay_seconds)
                    FROM bet_limits b
                   WHERE (b.sport_id IS NULL OR b.sport_id = s.id) AND (b.league_id IS NULL OR b.league_id = l.id) AND (b.event_id IS NULL OR b.event_id = e.id)
                   ORDER BY (b.event_id IS NOT NULL) DESC, (b.league_id IS NOT NULL) DESC, (b.sport_id IS NOT NULL) DESC
                   LIMIT 1) AS limits,
                 (SELECT p.accept_any_odds FROM betting_preferences p WHERE p.user_id = ${userId}) AS accept_any_odds,
                 state.*
            FROM ${protection.stateFor(userId)} AS state
            LEFT JOIN (markets m
                       JOIN events e ON e.id = m.event_id
                       JOIN leagues l ON l.id = e.league_id
                       JOIN sports s ON s.id = l.sport_id) ON m.external_id = ${externalId}
        `.pipe(
          Effect.flatMap(([row]) => (row ? Effect.succeed(row) : Effect.die(new Error(`no user ${userId}`)))),
          Effect.flatMap((row) =>
            Effect.all({
              state: Schema.decodeUnknownEffect(ProtectionRules)(row),
              market: row.id === null ? Effect.succeed(undefined) : Schema.decodeUnknownEffect(MarketInfo)(row)
            })
          ),
          Effect.orDie
        )

      const limitsOf = (market: MarketInfo): Limits =>
        market.limits
          ? { minStake: BigInt(market.limits.minStake), maxStake: BigInt(market.limits.maxStake), inPlayDelaySeconds: market.limits.inPlayDelaySeconds }
          : DEFAULT_LIMITS

      const limitsFor = (scope: { sportId?: string | undefined; leagueId?: string | undefined; eventId?: string | undefined }) =>
        sql`
          SELECT min_stake, max_stake, in_play_delay_seconds FROM bet_limits
           WHERE (sport_id IS NULL OR sport_id = ${scope.sportId ?? null})
             AND (league_id IS NULL OR league_id = ${scope.leagueId ?? null})
             AND (event_id IS NULL OR event_id = ${scope.eventId ?? null})
           ORDER BY (event_id IS NOT NULL) DESC, (league_id IS NOT NULL) DESC, (sport_id IS NOT NULL) DESC
           LIMIT 1
        `.pipe(decodeRows(Limits), Effect.map((rows) => rows[0] ?? DEFAULT_LIMITS))

      const oddsChangeOf = (userId: string) =>
        sql`SELECT accept_any_odds FROM betting_preferences WHERE user_id = ${userId}`.pipe(decodeRows(Schema.Struct({ acceptAnyOdds: Schema.Boolean })),
          Effect.map((rows): OddsChangeRule => (rows[0]?.acceptAnyOdds ? "any" : "better"))
        )

      const setting = Effect.fn("Betting.setting")(function*(userId: string, scope: { readonly sportsId?: string | undefined; readonly leagueId?: string | undefined; readonly eventId?: string | undefined }) {
        const limits = yield* limitsFor({ sportId: scope.sportsId, leagueId: scope.leagueId, eventId: scope.eventId })
        return {
          minStake: toRupees(limits.minStake),
          maxStake: toRupees(limits.maxStake),
          betDelay: limits.inPlayDelaySeconds,
          oddsChange: yield* oddsChangeOf(userId)
        } satisfies BetSetting
      })

      const setOddsChange = Effect.fn("Betting.setOddsChange")(function*(userId: string, rule: OddsChangeRule) {
        yield* sql`
          INSERT INTO betting_preferences (user_id, accept_any_odds) VALUES (${userId}, ${rule === "any"})
          ON CONFLICT (user_id) DO UPDATE SET accept_any_odds = EXCLUDED.accept_any_odds, updated_at = now()
        `
      })

      /**
       * The price on offer now for this side: the best back or lay level (fancy: the Yes or No line with its
       * size), from the book the feed's source published last, whichever server takes the bet.
       */
      const priceIn = (book: MarketBook | undefined, selectionId: string, side: "back" | "lay") => {
        if (!book) return { status: "CLOSED" as const, level: undefined }
        const runner = book.runners.find((r) => r.selectionId === selectionId)
        const level = side === "back" ? runner?.back[0] : runner?.lay[0]
        return { status: book.status, level }
      }

      /** The request against the market: endpoint, selection, price shape, stake shape. Runs inside the write, so a replayed key skips it. */
      const check = (market: MarketInfo, channel: BetChannel, payload: PlaceBetPayload) =>
        Effect.gen(function*() {
          if (channel === "fancy" && market.marketType !== "FANCY") return yield* unprocessable(MESSAGES.wrongChannelNotFancy)
          if (channel !== "fancy" && market.marketType === "FANCY") return yield* unprocessable(MESSAGES.wrongChannelFancy)
          if (channel === "racing" && !market.isRacing) return yield* unprocessable(MESSAGES.wrongChannelNotRacing)
          if (channel === "sport" && market.isRacing) return yield* unprocessable(MESSAGES.wrongChannelRacing)
          const runner = (market.runners ?? []).find((r) => r.selectionId === payload.selectionId)
          if (!runner) return yield* unprocessable(MESSAGES.unknownSelection)
          if (!validPrice(market.marketType, payload.odds, market.marketType === "FANCY" ? payload.size ?? null : null)) {
            return yield* badRequest(MESSAGES.badPrice)
          }
          const stake = toPaise(payload.stake)
          if (stake === undefined || stake <= 0) return yield* badRequest(MESSAGES.badStake)
          return { runner, stake }
        })

      const place = Effect.fn("Betting.place")(function*(
        user: { readonly id: string; readonly role: number },
        channel: BetChannel,
        payload: PlaceBetPayload,
        idempotencyKey: string | undefined
      ) {
        if (user.role !== Roles.PLAYER && user.role !== Roles.CREDIT_PLAYER) return yield* unprocessable(MESSAGES.notPlayer)
        // A player on a break or self-excluded is told so at once, before anything about the bet (and checked
        // again under the lock below). The two reads go at once, on connections of their own where the pool
        // has them. The book is read before the transaction, so no lock waits on it (on PostgreSQL it is a read
        // of the shared book); the market's status is checked again under the lock, so a bet never lands on a
        // market settled or suspended since.
        const [{ state, market }, book] = yield* Effect.all([marketInfo(payload.marketId, user.id), feed.current(payload.marketId)], { concurrency: 2 })
        yield* protection.admitPlayBy(state)
        if (!market) return yield* notFound(MESSAGES.unknownMarket)
        const limits = limitsOf(market)
        // In play, a bet waits out the delay and is checked against the price of that moment.
        const delayed = market.eventStatus === "live" && limits.inPlayDelaySeconds > 0
        if (delayed) yield* Effect.sleep(Duration.seconds(limits.inPlayDelaySeconds))
        const price = priceIn(delayed ? yield* feed.current(market.externalId) : book, payload.selectionId, payload.selectionType)

        const request = { owner: user.id, key: idempotencyKey, request: { channel, payload }, response: PlacedBet }
        return yield* idempotency.runCarried(request, (key) =>
          Effect.gen(function*() {
            // One statement: the Idempotency-Key's claim, then the lock, then (read after the lock, with what its
            // previous holder committed) the player's position on the market and their loss rules. One bet at a
            // time per player (their exposure is recomputed from their open bets); settlement takes the market's
            // row FOR UPDATE, so a bet either lands before it or sees the market settled. NO KEY UPDATE, not
            // UPDATE: settlement's ledger rows reference the player (a KEY SHARE lock), and a bet holding the
            // player FOR UPDATE while waiting for the market that settlement holds would deadlock with it. A
            // replayed key takes no lock.
            const [started] = yield* sql`
              WITH claim AS MATERIALIZED (${key.claim}),
                   locked AS MATERIALIZED (
                     SELECT u.id AS locked_user, u.wallet, u.status AS user_status, m.status AS market_status, e.status AS event_status, now() AS at
                       FROM users u, markets m JOIN events e ON e.id = m.event_id
                      WHERE u.id = ${user.id} AND m.id = ${market.id} AND (SELECT claimed FROM claim)
                        FOR NO KEY UPDATE OF u FOR KEY SHARE OF m
                   )
              SELECT claim.*, locked.*, mine.*, rules.*
                FROM claim LEFT JOIN (locked
                  CROSS JOIN LATERAL bet_position(locked.locked_user, ${market.id}) AS mine
                  CROSS JOIN LATERAL ${protection.lossRulesAfterLock(sql`locked.locked_user`)} AS rules) ON true
            `
            const replayed = yield* key.replay(yield* Schema.decodeUnknownEffect(ClaimRow)(started).pipe(Effect.orDie))
            if (Option.isSome(replayed)) return replayed.value

            const { runner, stake } = yield* check(market, channel, payload)
            const locked = yield* Schema.decodeUnknownEffect(Started)(started).pipe(Effect.orDie)
            if (locked.userStatus !== "active" || locked.wallet === null || locked.at === null) return yield* unprocessable(MESSAGES.notPlayer)
            if (locked.marketStatus === "SUSPENDED") return yield* unprocessable(MESSAGES.suspended, "MarketSuspended")
            if (locked.marketStatus !== "OPEN" || !["scheduled", "live"].includes(locked.eventStatus ?? "")) return yield* unprocessable(MESSAGES.closed, "MarketClosed")

            if (BigInt(stake) < limits.minStake) return yield* unprocessable(minStakeMessage(limits.minStake), "StakeOutOfRange")
            if (BigInt(stake) > limits.maxStake) return yield* unprocessable(maxStakeMessage(limits.maxStake), "StakeOutOfRange")

            if (price.status === "SUSPENDED") return yield* unprocessable(MESSAGES.suspended, "MarketSuspended")
            if (price.status === "CLOSED") return yield* unprocessable(MESSAGES.closed, "MarketClosed")
            if (!price.level) return yield* unprocessable(MESSAGES.noPrice)
            const requested = { odds: payload.odds, size: payload.size ?? null }
            const current = { odds: price.level.price, size: market.marketType === "FANCY" ? price.level.size : null }
            if (market.acceptAnyOdds !== true && !isSameOrBetter(market.marketType, payload.selectionType, requested, current)) {
              return yield* unprocessable(MESSAGES.oddsChanged, "OddsChanged")
            }

            // Matched at the price on offer, which is the one asked for or better (or, by choice, any).
            const next: Position = { selectionId: payload.selectionId, side: payload.selectionType, odds: current.odds, stake, size: current.size }
            const held = locked.heldWallet ? { wallet: locked.heldWallet, exposure: locked.heldExposure ?? 0n } : undefined
            const positions: Array<Position> = (locked.openBets ?? []).map((row) => ({
              selectionId: row.selectionId,
              side: row.side,
              odds: Number(row.odds),
              stake: Number(row.stake),
              size: row.size === null ? null : Number(row.size)
            }))
            const selections = (market.runners ?? []).map((r) => r.selectionId)
            const before = held ? Number(held.exposure) : marketExposure(market.marketType, selections, positions)
            const after = marketExposure(market.marketType, selections, [...positions, next])
            const delta = after - before
            // A closed account bets nothing; otherwise what the bet adds to the worst case must fit every loss limit.
            yield* protection.admitBet(locked, user.id, delta)
            // A market's exposure stays in the wallet it started in; a credit player only has the main wallet.
            const wallet: 1 | 2 = held?.wallet ?? (user.role === Roles.CREDIT_PLAYER ? 1 : locked.wallet)
            const free: AccountRef = { user: user.id, kind: wallet === 2 ? "bonus" : "main" }
            const exposureAccount: AccountRef = { user: user.id, kind: wallet === 2 ? "bonus_exposure" : "exposure" }

            // The bet's id is chosen here, so the posting and the stored response can name it in the same
            // statement; its created_at is the transaction's now(), read above.
            const betId = randomUUID()
            const liability = next.side === "back" ? stake : backProfit(market.marketType, next.odds, stake, next.size)
            const bet: Bet = {
              _id: betId,
              selection: runner.name,
              selectionId: runner.selectionId,
              selectionType: next.side,
              odds: next.odds,
              stake: toRupees(stake),
              liability: toRupees(liability),
              oddsSize: next.size ?? null,
              marketType: market.marketType,
              marketId: market.externalId,
              marketName: market.name,
              status: "open",
              profitLoss: null,
              createdAt: locked.at.toISOString(),
              eventId: { _id: market.eventId, name: market.eventName, slugName: market.eventSlug },
              sportId: { slugName: market.sportSlug },
              leagueId: { slugName: market.leagueSlug }
            }
            const placed = { bet, marketExposure: toRupees(after) } satisfies PlacedBet
            const posting = delta === 0 ? undefined : yield* ledger.prepare({
              kind: delta > 0 ? "bet.exposure" : "bet.release",
              userId: user.id,
              reference: `bet:${betId}`,
              description: delta > 0 ? `Exposure held for bet on ${runner.name}` : `Exposure released by bet on ${runner.name}`,
              legs: [
                { account: free, amount: -delta },
                { account: exposureAccount, amount: delta }
              ]
            })

            // One statement: the market's new hold, the bet, the money (refused whole on an overdraft) and the
            // key's response.
            const written = sql`
              WITH hold AS (
                     INSERT INTO market_exposures (user_id, market_id, wallet, exposure) VALUES (${user.id}, ${market.id}, ${wallet}, ${after})
                     ON CONFLICT (user_id, market_id) DO UPDATE SET exposure = EXCLUDED.exposure
                   ),
                   placed AS (
                     INSERT INTO bets (id, user_id, market_id, event_id, selection_id, selection_name, side, market_type, odds, size, stake,
                                       profit, liability, wallet, in_play)
                     VALUES (${betId}, ${user.id}, ${market.id}, ${market.eventId}, ${runner.selectionId}, ${runner.name}, ${next.side}, ${market.marketType},
                             ${next.odds}, ${next.size ?? null}, ${stake},
                             ${next.side === "back" ? backProfit(market.marketType, next.odds, stake, next.size) : stake}, ${liability},
                             ${wallet}, ${locked.eventStatus === "live"})
                   ),
                   answered AS (${yield* key.respond(placed)}),
                   posted AS MATERIALIZED (SELECT ${posting?.call ?? sql`NULL::text`} AS transaction_id)
              SELECT transaction_id FROM posted
            `
            if (posting) {
              yield* posting.settle(written).pipe(Effect.catchTag("InsufficientFunds", () => unprocessable(MESSAGES.insufficient, "InsufficientBalance")))
            } else {
              yield* written
              // My Bets changes even when no money moved (a bet that left the worst case as it was).
              yield* sql.afterCommit(realtime.notifyUser(user.id, "bet"))
            }
            return placed
          }))
      })

      return Betting.of({ place, setting, setOddsChange })
    })
  )
}
