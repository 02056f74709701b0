import { Context, Effect, Layer, Schema, Semaphore } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type Match, matchWaiting, meets, mergeMatches, offersOf, outcomeMessage } from "../../src/domain/matching.ts"
import { formatRupees, toRupees } from "../../src/domain/money.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { Simulation } from "../odds/runSimulator.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Change, Positions, withoutWaiting } from "./Positions.ts"

/** A bet waiting on a market, as the matcher finds it (one a later book than the one it was decided against may match). */
const WaitingBet = Schema.Struct({ id: Schema.String, userId: Schema.String, selectionId: Schema.String, side: Schema.Literals(["back", "lay"]), odds: NumericText, unmatched: Paise })
/** A price a market's waiting bets wait for: the lowest a backer asks, the highest a layer asks, per runner. */
const Threshold = Schema.Struct({ externalId: Schema.String, marketId: Schema.String, selectionId: Schema.String, side: Schema.Literals(["back", "lay"]), odds: NumericText })
type Threshold = typeof Threshold.Type
/** A waiting bet whose player chose to cancel it at in-play, now its event is. */
const Lapsing = Schema.Struct({ userId: Schema.String, marketId: Schema.String })

/** How often the matcher looks at every waiting bet again (bets placed on other servers, prices it missed, in-play). */
const SWEEP_EVERY = "1 second"

/**
 * Matching what waits, where prices are made: in one process, and on the odds
 * leader with several servers. It hears every book published, and where one
 * reaches a waiting price (kept in memory per market, from the database) it
 * matches that market's waiting bets decided against an older book, in the
 * order they were placed, each at its price or better (`Positions.change`),
 * and tells each player over their socket. Every second it sweeps every
 * waiting bet (bets placed on other servers, a price that moved while a bet
 * was being written), and cancels what waits on bets whose player chose to
 * cancel it at in-play once their event is in play (also at once when the
 * catalogue says events started).
 */
export class Matcher extends Context.Service<Matcher, {
  /** A bet was left waiting on this market (feed id): the market may already have come to it. */
  noteWaiting(externalId: string): Effect.Effect<void>
  /** Matches what the markets' current books reach and cancels what lapses at in-play, now (tests). */
  readonly sweep: Effect.Effect<void, SqlError.SqlError>
}>()("khel/Matcher") {
  static readonly layer = Layer.effect(
    Matcher,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const feed = yield* OddsFeed
      const simulation = yield* Simulation
      const realtime = yield* Realtime
      const positions = yield* Positions
      const services = yield* Effect.context<never>()

      /** Markets with waiting bets (feed id → the prices they wait for), as last swept. */
      let thresholds = new Map<string, ReadonlyArray<Threshold>>()
      const due = new Set<string>()
      const passes = yield* Semaphore.make(1)
      const run = <A, E>(effect: Effect.Effect<A, E>) =>
        Effect.runForkWith(services)(effect.pipe(Effect.catchCause((cause) => Effect.logWarning("matching waiting bets failed", cause))))

      const reaches = (book: MarketBook | undefined, waits: ReadonlyArray<Threshold>) =>
        book?.status === "OPEN" && waits.some((t) => {
          const runner = book.runners.find((r) => r.selectionId === t.selectionId)
          return ((t.side === "back" ? runner?.back : runner?.lay) ?? []).some((level) => meets(t.side, Number(t.odds), level.price))
        })

      /** What happened to a player's waiting bet, told after it committed (a toast, and My Bets loads again). */
      const tell = (userId: string, message: string) => realtime.notifyUser(userId, "bet.matched", message)

      /** One market's waiting bets against its book now, in the order placed; each player's matches in one change. */
      const matchMarket = (externalId: string) =>
        Effect.gen(function*() {
          const book = feed.book(externalId)
          const marketId = thresholds.get(externalId)?.[0]?.marketId
          if (!book || book.status !== "OPEN" || !marketId) return
          // In play, what waits on bets to be cancelled at in-play is not matched but cancelled (`lapse`).
          const waitingBets = yield* sql`
            SELECT b.id, b.user_id, b.selection_id, b.side, b.odds::text AS odds, b.unmatched
              FROM bets b JOIN events e ON e.id = b.event_id
             WHERE b.market_id = ${marketId} AND b.status = 'open' AND b.unmatched > 0
               AND (b.book_version IS NULL OR b.book_version < ${book.version})
               AND (b.persistence = 'keep' OR e.status = 'scheduled')
             ORDER BY b.created_at, b.id
          `.pipe(decodeRows(WaitingBet))
          const found = new Map<string, Map<string, ReadonlyArray<Match>>>()
          for (const runner of book.runners) {
            for (const side of ["back", "lay"] as const) {
              const queue = waitingBets
                .filter((bet) => bet.selectionId === runner.selectionId && bet.side === side)
                .map((bet) => ({ ...bet, odds: Number(bet.odds), unmatched: Number(bet.unmatched) }))
              if (queue.length === 0) continue
              for (const { bet, matches } of matchWaiting(offersOf(side, side === "back" ? runner.back : runner.lay), side, queue)) {
                const mine = found.get(bet.userId) ?? new Map<string, ReadonlyArray<Match>>()
                found.set(bet.userId, mine.set(bet.id, matches))
              }
            }
          }
          for (const [userId, matchesOf] of found) {
            const now = new Map<string, ReadonlyArray<Match>>()
            yield* positions.change(userId, marketId, (market, bets) =>
              Effect.succeed(bets.flatMap((bet): Array<Change> => {
                const matches = matchesOf.get(bet.id)
                if (!matches || market.status !== "OPEN" || (bet.persistence === "cancel" && market.eventStatus !== "scheduled")) return []
                // Under the lock the bet may wait for less, or at another price, than when it was found.
                let rest = bet.unmatched
                const taken: Array<Match> = []
                for (const match of matches) {
                  const stake = Math.min(rest, match.stake)
                  if (stake === 0 || !meets(bet.side, bet.odds, match.odds)) continue
                  taken.push({ odds: match.odds, stake })
                  rest -= stake
                }
                if (taken.length === 0) return []
                now.set(bet.id, taken)
                return [{ ...bet, unmatched: rest, matches: mergeMatches([...bet.matches, ...taken]), bookVersion: book.version }]
              })), { reference: `market:${marketId}`, what: "unmatched bets matched" }).pipe(
              // Each player hears what of their bet matched just now, and what still waits.
              Effect.flatMap(({ market, changed }) =>
                Effect.forEach(changed, (bet) =>
                  tell(userId, `${bet.selectionName}: ${outcomeMessage(market.marketType, { odds: bet.odds, unmatched: bet.unmatched, cancelled: 0, matches: now.get(bet.id) ?? [] })}`), { discard: true })
              ),
              // A player's change that fails (a settlement got there first) leaves the others to be matched.
              Effect.catchTag("ApiError", () => Effect.void)
            )
          }
        })

      /** What waits on bets whose players chose to cancel it at in-play, cancelled now their events are in play. */
      const lapse = Effect.gen(function*() {
        const lapsing = yield* sql`
          SELECT DISTINCT b.user_id, b.market_id FROM bets b JOIN events e ON e.id = b.event_id
           WHERE b.status = 'open' AND b.unmatched > 0 AND b.persistence = 'cancel' AND e.status <> 'scheduled'
        `.pipe(decodeRows(Lapsing))
        for (const { userId, marketId } of lapsing) {
          const waited = new Map<string, number>()
          yield* positions.change(userId, marketId, (market, bets) =>
            Effect.succeed(market.eventStatus === "scheduled" ? [] : bets.filter((bet) => bet.unmatched > 0 && bet.persistence === "cancel").map((bet) => {
              waited.set(bet.id, bet.unmatched)
              return withoutWaiting(bet, bet.unmatched)
            })), { reference: `market:${marketId}`, what: "unmatched bets cancelled at in-play" }).pipe(
            Effect.flatMap(({ changed }) =>
              Effect.forEach(changed, (bet) => tell(userId, `${bet.selectionName}: ${formatRupees(toRupees(waited.get(bet.id) ?? 0))} unmatched cancelled at in-play`), { discard: true })
            ),
            Effect.catchTag("ApiError", () => Effect.void)
          )
        }
      })

      const leading = Effect.map(simulation.current, (simulator) => simulator !== undefined)

      /** Matches the markets marked due, one pass at a time. */
      const matchDue = passes.withPermits(1)(Effect.gen(function*() {
        const markets = [...due]
        due.clear()
        for (const externalId of markets) yield* matchMarket(externalId)
      }))

      const markDue = (externalId: string) => {
        if (due.has(externalId)) return
        due.add(externalId)
        run(matchDue)
      }

      /** The prices a market's waiting bets wait for (all markets when none is named). */
      const thresholdsOf = (externalId?: string) =>
        sql`
          SELECT m.external_id, b.market_id, b.selection_id, b.side,
                 (CASE b.side WHEN 'back' THEN min(b.odds) ELSE max(b.odds) END)::text AS odds
            FROM bets b JOIN markets m ON m.id = b.market_id
           WHERE b.status = 'open' AND b.unmatched > 0 ${externalId === undefined ? sql`` : sql`AND m.external_id = ${externalId}`}
           GROUP BY m.external_id, b.market_id, b.selection_id, b.side
        `.pipe(decodeRows(Threshold), Effect.map((rows) => {
          const byMarket = new Map<string, Array<Threshold>>()
          for (const row of rows) byMarket.set(row.externalId, [...(byMarket.get(row.externalId) ?? []), row])
          return byMarket
        }))

      /** One market's waiting bets looked at again: matched now if the market reaches them. */
      const refresh = (externalId: string) =>
        Effect.gen(function*() {
          if (!(yield* leading)) return
          const found = (yield* thresholdsOf(externalId)).get(externalId)
          if (found) thresholds.set(externalId, found)
          else thresholds.delete(externalId)
          if (found && reaches(feed.book(externalId), found)) markDue(externalId)
        })

      /** Every waiting bet: the prices they wait for, the markets that reach them now, and what lapses at in-play. */
      const sweep = Effect.gen(function*() {
        if (!(yield* leading)) return
        const next = yield* thresholdsOf()
        thresholds = next
        for (const [externalId, waits] of next) if (reaches(feed.book(externalId), waits)) markDue(externalId)
        yield* passes.withPermits(1)(lapse)
      })

      // Every book published: matched at once where it reaches a waiting price (only where prices are made).
      const unsubscribe = feed.subscribe((update) => {
        const waits = update.market && thresholds.get(update.market.marketId)
        if (waits && reaches(update.market, waits)) run(Effect.flatMap(leading, (lead) => (lead ? Effect.sync(() => markDue(update.market!.marketId)) : Effect.void)))
      })
      // Events went in play (or finished): what waits to be cancelled at in-play is cancelled now.
      const unlisten = feed.onCatalogueChange(() => run(sweep))
      yield* Effect.addFinalizer(() => Effect.sync(() => {
        unsubscribe()
        unlisten()
      }))
      yield* sweep.pipe(
        Effect.catchCause((cause) => Effect.logWarning("sweeping waiting bets failed", cause)),
        Effect.delay(SWEEP_EVERY),
        Effect.forever,
        Effect.forkScoped
      )

      return Matcher.of({
        noteWaiting: (externalId) => Effect.sync(() => void run(refresh(externalId))),
        sweep
      })
    })
  )
}
