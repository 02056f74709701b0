import type { MarketBook } from "../schema/betting.ts"

/** How far back a market's price chart goes. */
export const HISTORY_SPAN_MS = 60 * 60 * 1000
/** At most one point per runner in each step of this length: the latest price in it (240 points an hour). */
export const HISTORY_STEP_MS = 15 * 1000

/** A runner's price at one instant; null while it has none on offer. */
export interface RunnerPrice {
  readonly selectionId: string
  readonly price: number | null
}

/**
 * A market's price history as columns (uPlot's shape): the times (ms, oldest
 * first) and per runner its price at each time.
 */
export interface PriceSeries {
  readonly times: ReadonlyArray<number>
  readonly runners: ReadonlyArray<{ readonly selectionId: string; readonly prices: ReadonlyArray<number | null> }>
}

export const emptySeries: PriceSeries = { times: [], runners: [] }

/** What a book's chart shows of each runner: its best back price (there is no last traded price in the feed). */
export const bookPrices = (book: MarketBook): ReadonlyArray<RunnerPrice> =>
  book.runners.map((runner) => ({ selectionId: runner.selectionId, price: runner.back[0]?.price ?? null }))

const stepOf = (at: number, step: number) => Math.floor(at / step)

/**
 * The history with the prices at `at` added: a new point when `at` starts a
 * new step, else the step's point takes the new prices (and time). Points
 * older than the span are dropped, so it holds at most span / step + 1 points;
 * a time before the last point's is ignored (the history only moves
 * forward). Runners new to the market start with no price; unchanged input
 * returns the same object.
 */
export const addPrices = (
  series: PriceSeries,
  at: number,
  prices: ReadonlyArray<RunnerPrice>,
  options: { readonly step?: number; readonly span?: number } = {}
): PriceSeries => {
  const step = options.step ?? HISTORY_STEP_MS
  const span = options.span ?? HISTORY_SPAN_MS
  const last = series.times.length - 1
  const lastAt = series.times[last]
  if (lastAt !== undefined && at < lastAt) return series
  const replace = lastAt !== undefined && stepOf(at, step) === stepOf(lastAt, step)
  const priceOf = new Map(prices.map((p) => [p.selectionId, p.price]))
  const known = new Set(series.runners.map((r) => r.selectionId))
  const runners = [
    ...series.runners,
    ...prices.filter((p) => !known.has(p.selectionId)).map((p) => ({ selectionId: p.selectionId, prices: series.times.map(() => null) }))
  ]
  if (replace && runners.length === series.runners.length && runners.every((r) => (priceOf.get(r.selectionId) ?? null) === r.prices[last])) return series
  // The first point still inside the span once `at` is added.
  const from = series.times.findIndex((t) => t > at - span)
  const keep = (values: ReadonlyArray<number | null>) => values.slice(from === -1 ? values.length : from, replace ? last : undefined)
  return {
    times: [...keep(series.times) as ReadonlyArray<number>, at],
    runners: runners.map((r) => ({ selectionId: r.selectionId, prices: [...keep(r.prices), priceOf.get(r.selectionId) ?? null] }))
  }
}

/** The points not older than the span before `now` (a quiet market's history ages out while nothing new comes). */
export const seriesSince = (series: PriceSeries, now: number, span = HISTORY_SPAN_MS): PriceSeries => {
  const from = series.times.findIndex((t) => t > now - span)
  if (from === 0) return series
  const cut = from === -1 ? series.times.length : from
  return { times: series.times.slice(cut), runners: series.runners.map((r) => ({ selectionId: r.selectionId, prices: r.prices.slice(cut) })) }
}
