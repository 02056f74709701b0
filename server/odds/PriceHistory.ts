import { Clock, Context, Effect, Layer } from "effect"
import { addPrices, bookPrices, emptySeries, HISTORY_SPAN_MS, type PriceSeries, seriesSince } from "../../src/domain/priceHistory.ts"
import { OddsFeed } from "./OddsFeed.ts"

/** Markets whose last point is older than the span are forgotten this often. */
const SWEEP_EVERY = "1 minute"

/**
 * Each exchange market's best back prices over the last hour (the event
 * page's price charts), one point per runner per step (src/domain/priceHistory.ts).
 *
 * Kept in memory on every server, fed by the feed's own book changes: every
 * server already receives every book (the leader from its simulator, the
 * others from the store, cluster.ts), so each builds the same history with no
 * table, no writes on the leader's 100 ms path and nothing to prune in the
 * database. What this costs: a server started less than an hour ago shows
 * less than an hour (from its first book of each market), which a chart can
 * live with; a closed market's history goes with it.
 */
export class PriceHistory extends Context.Service<PriceHistory, {
  /** A market's history (its feed id), or undefined when it is no open exchange market this server knows of. */
  of(marketId: string): Effect.Effect<PriceSeries | undefined>
}>()("khel/PriceHistory") {
  static readonly layer = Layer.effect(
    PriceHistory,
    Effect.gen(function*() {
      const feed = yield* OddsFeed
      const clock = yield* Clock.Clock
      const histories = new Map<string, PriceSeries>()
      const unsubscribe = feed.subscribe(({ market }) => {
        if (!market || market.marketType !== "EXCHANGE") return
        if (market.status === "CLOSED") histories.delete(market.marketId)
        else histories.set(market.marketId, addPrices(histories.get(market.marketId) ?? emptySeries, clock.currentTimeMillisUnsafe(), bookPrices(market)))
      })
      yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))
      const sweep = Effect.sync(() => {
        const oldest = clock.currentTimeMillisUnsafe() - HISTORY_SPAN_MS
        for (const [marketId, series] of histories) if ((series.times.at(-1) ?? 0) <= oldest) histories.delete(marketId)
      })
      yield* sweep.pipe(Effect.delay(SWEEP_EVERY), Effect.forever, Effect.forkScoped)

      const of = (marketId: string) =>
        Effect.sync(() => {
          const book = feed.book(marketId)
          if (!book || book.marketType !== "EXCHANGE" || book.status === "CLOSED") return undefined
          const now = clock.currentTimeMillisUnsafe()
          const kept = seriesSince(histories.get(marketId) ?? emptySeries, now)
          // A market quiet for the whole span, or whose books all came before this server listened: its prices now.
          return kept.times.length > 0 ? kept : addPrices(emptySeries, now, bookPrices(book))
        })
      return PriceHistory.of({ of })
    })
  )
}
