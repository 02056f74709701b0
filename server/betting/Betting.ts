import { randomUUID } from "node:crypto"
import { Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { BET_MESSAGES, type BetChannel, decideBet } from "../../src/domain/betDecision.ts"
import { positionsOf } from "../../src/domain/matching.ts"
import { toRupees } from "../../src/domain/money.ts"
import { MarketBook, type PlaceBetPayload, PlacedBet } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { Roles } from "../../src/schema/user.ts"
import { Paise } from "../db/rows.ts"
import { ClaimRow, Idempotency } from "../ledger/Idempotency.ts"
import { type AccountRef, Ledger } from "../ledger/Ledger.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { recordRetry } from "../observability/metrics.ts"
import { Admission } from "../protection/Admission.ts"
import { BetProtectionInputs } from "../protection/rules.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { betFigures, DEFAULT_LIMITS, type Limits, limitsFrom, OpenBetParts, partsOf, viewOfBet } from "./Bets.ts"
import { Matcher } from "./Matcher.ts"

const Runner = Schema.Struct({ selectionId: Schema.String, name: Schema.String })

/** The market with everything placement reads but the prices and the statuses (those are in `BetInputs`). */
const MarketInfo = Schema.Struct({
  id: Schema.String,
  externalId: Schema.String,
  name: Schema.String,
  marketType: MarketType,
  eventId: Schema.String,
  eventName: Schema.String,
  eventSlug: Schema.String,
  leagueId: Schema.String,
  leagueSlug: Schema.String,
  sportId: Schema.String,
  sportSlug: Schema.String,
  isRacing: Schema.Boolean,
  runners: Schema.NullOr(Schema.Array(Runner)),
  /** The most specific stake limits (bet_limits), as JSON numbers of paise. */
  limits: Schema.NullOr(Schema.Struct({ minStake: Schema.Int, maxStake: Schema.Int, inPlayDelaySeconds: Schema.Int }))
})
type MarketInfo = typeof MarketInfo.Type


const Wallet = Schema.Literals([1, 2])

/**
 * What `bet_inputs` (migrations 0081, 0083) reads, everything the bet is decided on about the player and the market:
 * statuses (the market's null when there is no such market), the player's open bets on the market (JSON numbers:
 * migration 0110) and what the market holds of theirs, their protection rules and loss counts; `fingerprint` is of
 * all of it.
 */
const BetInputs = Schema.Struct({
  wallet: Wallet,
  userStatus: Schema.String,
  marketStatus: Schema.NullOr(Schema.String),
  eventStatus: Schema.NullOr(Schema.String),
  openBets: Schema.NullOr(Schema.Array(OpenBetParts)),
  heldWallet: Schema.NullOr(Wallet),
  heldExposure: Schema.NullOr(Paise),
  ...BetProtectionInputs.fields,
  fingerprint: Schema.String
})

/** The bet's read: the inputs, what an earlier request with the key stored (`claimed` null: nothing), the database's time. */
const BetRead = Schema.Struct({
  ...BetInputs.fields,
  claimed: Schema.NullOr(Schema.Boolean),
  storedHash: Schema.NullOr(Schema.String),
  storedResponse: Schema.Unknown,
  at: Schema.Date
})

/** The bet's inputs changed between its read and its write's lock: the write wrote nothing, and the bet is decided again. */
class InputsChanged extends Schema.TaggedError<InputsChanged>()("InputsChanged", {}) {}

/** What `bet_inputs_unchanged` raises (the SQLSTATE serialization_failure). */
const SERIALIZATION_FAILURE = "40001"

/**
 * How many times a bet is decided at most. A decision is only made again when another write of the player's (or
 * the market's settlement) landed between its read and its lock, so n bets of one player on one market sent at
 * once need n decisions at most: twenty covers a player's burst, and a bot's longer one is told to place again.
 */
export const DECISIONS = 20

/**
 * Placing bets: reads what the bet is decided on, decides it (`decideBet`,
 * src/domain/betDecision.ts: the request, the market's state, the stake's
 * limits, the price, and what the market's worst case grows by), checks the
 * player's loss limits, and writes the outcome in one statement (with the
 * Idempotency-Key record) that is refused unless the inputs are still the ones
 * decided on. What waits unmatched `Matcher` matches later.
 */
export class Betting extends Context.Service<Betting, {
  place(
    user: { readonly id: string; readonly role: number },
    channel: BetChannel,
    payload: PlaceBetPayload,
    idempotencyKey: string | undefined
  ): Effect.Effect<PlacedBet, ApiError | SqlError.SqlError>
}>()("khel/Betting") {
  static readonly layer = Layer.effect(
    Betting,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const idempotency = yield* Idempotency
      const feed = yield* OddsFeed
      const realtime = yield* Realtime
      const admission = yield* Admission
      const matcher = yield* Matcher

      /**
       * Everything the bet is decided on, in one round trip: the player's inputs (`bet_inputs`, with `args` from
       * `Admission.betInputArgs`), the market (none when there is no such market), what an earlier request with
       * the key stored (`stored`), the feed's stored book (`book`: several servers) and the database's time (the bet's).
       */
      const readFor = (externalId: string, userId: string, args: Statement.Fragment, stored: Statement.Fragment, book: Statement.Fragment) =>
        sql`
          SELECT m.id, m.external_id, m.name, m.market_type,
                 e.id AS event_id, e.name AS event_name, e.slug AS event_slug,
                 l.id AS league_id, l.slug AS league_slug, s.id AS sport_id, s.slug AS sport_slug, s.is_racing,
                 (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                    FROM runners r WHERE r.market_id = m.id) AS runners,
                 (SELECT json_build_object('minStake', bl.min_stake, 'maxStake', bl.max_stake, 'inPlayDelaySeconds', bl.in_play_delay_seconds)
                    ${limitsFrom(sql, { sport: sql`s.id`, league: sql`l.id`, event: sql`e.id` })}) AS limits,
                 ${book} AS stored_book, inputs.*, stored.*, now() AS at
            FROM (SELECT) AS one
            LEFT JOIN (markets m
                       JOIN events e ON e.id = m.event_id
                       JOIN leagues l ON l.id = e.league_id
                       JOIN sports s ON s.id = l.sport_id) ON m.external_id = ${externalId}
            CROSS JOIN LATERAL bet_inputs(${userId}, m.id, ${args}) AS inputs
            LEFT JOIN LATERAL (${stored}) AS stored ON true
        `.pipe(
          Effect.flatMap(([row]) => (row ? Effect.succeed(row) : Effect.die(new Error(`no user ${userId}`)))),
          Effect.flatMap((row) =>
            Effect.all({
              read: Schema.decodeUnknownEffect(BetRead)(row),
              market: row.id === null ? Effect.succeed(undefined) : Schema.decodeUnknownEffect(MarketInfo)(row),
              storedBook: row.storedBook === null ? Effect.succeed(undefined) : Schema.decodeUnknownEffect(MarketBook)(row.storedBook)
            })
          ),
          Effect.orDie
        )

      const limitsOf = (market: MarketInfo): Limits =>
        market.limits
          ? { minStake: BigInt(market.limits.minStake), maxStake: BigInt(market.limits.maxStake), inPlayDelaySeconds: market.limits.inPlayDelaySeconds }
          : DEFAULT_LIMITS

      const place = Effect.fn("Betting.place")(function*(
        user: { readonly id: string; readonly role: number },
        channel: BetChannel,
        payload: PlaceBetPayload,
        idempotencyKey: string | undefined
      ) {
        if (user.role !== Roles.PLAYER && user.role !== Roles.CREDIT_PLAYER) return yield* refuse("Refused", BET_MESSAGES.notPlayer)
        const request = { owner: user.id, key: idempotencyKey, request: { channel, payload }, response: PlacedBet }
        return yield* idempotency.runCarried(request, (key) => {
          /**
           * The bet's read, with the book (before any lock: with several servers, the shared stored book, read in the
           * same statement). `args` is kept for the write's check, so both count the same windows.
           */
          const read = Effect.gen(function*() {
            const args = admission.betInputArgs()
            const bookColumn = feed.storedBook?.(payload.marketId)
            const { storedBook, ...found } = yield* readFor(payload.marketId, user.id, args, key.stored, bookColumn ?? sql`NULL::jsonb`)
            const book = bookColumn ? storedBook : feed.book(payload.marketId)
            return { args, ...found, book }
          })

          /**
           * Decides the bet from what `read` read and writes it in one statement, which takes the player's and the
           * market's locks, reads the inputs again after them and writes nothing (`InputsChanged`) unless they are
           * the ones decided on. A replayed key writes nothing and gives the stored response.
           */
          const decideAndWrite = ({ args, read: inputs, market, book }: Effect.Success<typeof read>) =>
            Effect.gen(function*() {
              if (inputs.claimed !== null) {
                const replayed = yield* key.replay({ claimed: inputs.claimed, storedHash: inputs.storedHash, storedResponse: inputs.storedResponse })
                if (Option.isSome(replayed)) return replayed.value
              }
              if (!market) return yield* refuse("NotFound", BET_MESSAGES.unknownMarket)
              const decision = decideBet({
                channel,
                creditPlayer: user.role === Roles.CREDIT_PLAYER,
                userStatus: inputs.userStatus,
                marketStatus: inputs.marketStatus,
                eventStatus: inputs.eventStatus,
                wallet: inputs.wallet,
                positions: (inputs.openBets ?? []).flatMap((row) => positionsOf(partsOf(row))),
                held: inputs.heldWallet ? { wallet: inputs.heldWallet, exposure: Number(inputs.heldExposure ?? 0n) } : undefined
              }, { ...market, runners: market.runners ?? [], limits: limitsOf(market) }, book, payload)
              if (decision._tag === "Refused") return yield* refuse(decision.reason, decision.message)
              const { runner, stake, persistence, live, parts, exposure: after, delta, wallet, closed } = decision
              // A closed account bets nothing; otherwise what the bet adds to the worst case must fit every loss limit.
              yield* admission.admitBet(inputs, user.id, delta)
              const free: AccountRef = { user: user.id, kind: wallet === 2 ? "bonus" : "main" }
              const exposureAccount: AccountRef = { user: user.id, kind: wallet === 2 ? "bonus_exposure" : "exposure" }

              // The bet's id is chosen here, so the posting and the stored response can name it in the same
              // statement; its time is the database's, read above.
              const betId = randomUUID()
              const figures = betFigures(market.marketType, parts)
              const bet = viewOfBet({
                id: betId,
                selectionName: runner.name,
                ...parts,
                stake,
                persistence,
                marketType: market.marketType,
                marketExternalId: market.externalId,
                marketName: market.name,
                status: closed ? "cancelled" : "open",
                profitLoss: closed ? 0 : null,
                createdAt: inputs.at,
                eventId: market.eventId,
                eventName: market.eventName,
                eventSlug: market.eventSlug,
                sportSlug: market.sportSlug,
                leagueSlug: market.leagueSlug
              })
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

              // One statement, so one transaction of its own: the key's record (a request with the key that
              // committed since the read stops it here), the locks, the inputs read again after them (each query in
              // `bet_inputs` takes a fresh snapshot, so it reads what the lock's previous holder committed) and
              // refused unless unchanged, then the market's new hold, the bet and the money (refused whole on an
              // overdraft). NO KEY UPDATE of the player, not UPDATE: settlement's ledger rows reference the player (a
              // KEY SHARE lock), and a bet holding the player FOR UPDATE while waiting for the market that
              // settlement holds FOR UPDATE would deadlock with it.
              const written = sql`
                WITH claim AS MATERIALIZED (${yield* key.record(placed)}),
                     locked AS MATERIALIZED (
                       SELECT u.id FROM users u, markets m
                        WHERE u.id = ${user.id} AND m.id = ${market.id} AND (SELECT claimed FROM claim)
                          FOR NO KEY UPDATE OF u FOR KEY SHARE OF m
                     ),
                     checked AS MATERIALIZED (
                       SELECT bet_inputs_unchanged(again.fingerprint IS NOT DISTINCT FROM ${inputs.fingerprint}) AS unchanged
                         FROM claim
                         LEFT JOIN locked ON true
                         LEFT JOIN LATERAL bet_inputs(locked.id, ${market.id}, ${args}) AS again ON true
                        WHERE claim.claimed
                     ),
                     hold AS (
                       INSERT INTO market_exposures (user_id, market_id, wallet, exposure)
                       SELECT ${user.id}, ${market.id}, ${wallet}, ${after} FROM checked
                       ON CONFLICT (user_id, market_id) DO UPDATE SET exposure = EXCLUDED.exposure
                     ),
                     placed AS (
                       INSERT INTO bets (id, user_id, market_id, event_id, selection_id, selection_name, side, market_type, odds, size, stake,
                                         profit, liability, wallet, in_play, created_at, unmatched, cancelled, matches, persistence,
                                         status, profit_loss, settled_at, book_version)
                       SELECT ${betId}, ${user.id}, ${market.id}, ${market.eventId}, ${runner.selectionId}, ${runner.name}, ${parts.side}, ${market.marketType},
                              ${parts.odds}, ${parts.size}, ${stake}, ${figures.profit}, ${figures.liability},
                              ${wallet}, ${live}, ${inputs.at}, ${parts.unmatched}, ${parts.cancelled}, ${JSON.stringify(parts.matches)}::jsonb, ${persistence},
                              ${closed ? "cancelled" : "open"}, ${closed ? 0 : null}, ${closed ? inputs.at : null}, ${book?.version ?? null}
                         FROM checked
                     ),
                     posted AS MATERIALIZED (SELECT ${posting?.call ?? sql`NULL::text`} AS transaction_id FROM checked)
                -- A SELECT in WITH runs only when read: the count is what makes the posting run.
                SELECT claim.*, (SELECT count(*) FROM posted)::int AS postings FROM claim
              `
              const [answer] = yield* (posting ? posting.settle(written) : written).pipe(
                Effect.catchTag("InsufficientFunds", () => refuse("InsufficientBalance", BET_MESSAGES.insufficient)),
                Effect.catchTag("SqlError", (error) =>
                  Effect.fail((error.reason as { cause?: { code?: string } }).cause?.code === SERIALIZATION_FAILURE ? new InputsChanged() : error)
                )
              )
              const recorded = yield* Schema.decodeUnknownEffect(ClaimRow)(answer).pipe(Effect.orDie)
              if (!recorded.claimed) {
                // A request with the same key committed between the read and this statement: its answer is this one's.
                const replayed = yield* key.replay(recorded)
                if (Option.isSome(replayed)) return replayed.value
                return yield* Effect.die(new Error("a key neither recorded nor stored"))
              }
              // My Bets changes even when no money moved (a bet that left the worst case as it was).
              if (!posting) yield* sql.afterCommit(realtime.notifyUser(user.id, "bet"))
              // What matched came off the ladder the players see.
              if (market.marketType === "EXCHANGE" && parts.matches.length > 0) {
                yield* sql.afterCommit(feed.take(market.externalId, { selectionId: parts.selectionId, side: parts.side, matches: parts.matches }))
              }
              // What waits is matched as soon as the market comes to it: the market may have come already.
              if (parts.unmatched > 0) yield* sql.afterCommit(matcher.noteWaiting(market.externalId))
              // The desk's book of the market (gathered: at most one notification a second per market).
              yield* sql.afterCommit(realtime.bookChanged(market.externalId))
              return placed
            })

          return Effect.gen(function*() {
            const first = yield* read
            // A player on a break or self-excluded is told so at once, before anything about the bet (and checked
            // again in the decision, by inputs its write verifies).
            yield* admission.admitPlayBy(first.read)
            if (!first.market && first.read.claimed === null) return yield* refuse("NotFound", BET_MESSAGES.unknownMarket)
            // In play, a bet waits out the delay and is decided by a read of that moment: its price, its time (a
            // replay does not wait).
            const delay = first.read.claimed === null && first.read.eventStatus === "live" && first.market ? limitsOf(first.market).inPlayDelaySeconds : 0
            if (delay > 0) yield* Effect.sleep(Duration.seconds(delay))
            const decideAgain = Effect.flatMap(read, decideAndWrite)
            // Each decision made again is a transaction retried (counted for the metrics).
            const retried = Effect.andThen(recordRetry("bet"), decideAgain)
            return yield* (delay > 0 ? decideAgain : decideAndWrite(first)).pipe(
              Effect.catchTag("InputsChanged", () => retried.pipe(Effect.retry({ while: (e) => e._tag === "InputsChanged", times: DECISIONS - 2 }))),
              Effect.catchTag("InputsChanged", () => refuse("Conflict", BET_MESSAGES.busy))
            )
          })
        })
      })

      return Betting.of({ place })
    })
  )
}
