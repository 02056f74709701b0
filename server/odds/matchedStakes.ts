/** What matched bets take off an exchange market's ladder, and its book published without the levels they emptied. */
import type { MarketBook } from "../../src/schema/betting.ts"
import type { MarketState } from "./prices.ts"

/** What a matched bet took off a runner's ladder: the side it took (the player's) and its parts, stakes in paise. */
export interface Taken {
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly matches: ReadonlyArray<{ readonly odds: number; readonly stake: number }>
}

/**
 * Matched stakes come off the exchange ladder the players see, level by level, so a big bet visibly moves the
 * market; a level taken whole is empty (not published, `withoutEmptyLevels`) until the model offers a fresh size
 * there (`flickerSizes`). A side an operator priced by hand keeps its levels. The same prices, a new version; false
 * when nothing was on the ladder to take.
 */
export const takeMatched = (market: MarketState, taken: Taken): boolean => {
  if (market.closed || market.type !== "EXCHANGE" || market.pins.has(taken.selectionId)) return false
  const i = market.runners.findIndex((r) => r.selectionId === taken.selectionId)
  const sizes = market.sizes[i]?.[taken.side]
  const shown = market.book.runners.find((r) => r.selectionId === taken.selectionId)?.[taken.side]
  if (!sizes || !shown) return false
  const hundredths = (price: number) => Math.round(price * 100)
  const levels = shown.map((level) => ({ ...level }))
  let changed = false
  for (const match of taken.matches) {
    // A book's level k is the ladder's size k (`exchangeLevels` drops levels only past the ladder's ends).
    const k = levels.findIndex((level) => hundredths(level.price) === hundredths(match.odds))
    if (k < 0 || sizes[k] === undefined) continue
    const left = Math.max(0, Math.round(levels[k]!.size - match.stake / 100))
    sizes[k] = left
    levels[k] = { price: levels[k]!.price, size: left }
    changed = true
  }
  if (!changed) return false
  market.book = {
    ...market.book,
    runners: market.book.runners.map((r) => (r.selectionId === taken.selectionId ? { ...r, [taken.side]: levels } : r)),
    version: market.book.version + 1
  }
  return true
}

/**
 * The book as it is published: an exchange level that matched bets emptied is not shown (the simulator keeps it,
 * so its levels stay in step with the ladder's sizes).
 */
export const withoutEmptyLevels = (book: MarketBook): MarketBook =>
  book.marketType !== "EXCHANGE" || book.runners.every((r) => r.back.every((l) => l.size > 0) && r.lay.every((l) => l.size > 0))
    ? book
    : { ...book, runners: book.runners.map((r) => ({ ...r, back: r.back.filter((l) => l.size > 0), lay: r.lay.filter((l) => l.size > 0) })) }
