/**
 * Every betting formula, once, for the bet slip and the server alike
 * (SPEC section 9). Amounts are integer paise; prices are as the market
 * shows them:
 *
 * - EXCHANGE: decimal odds (1.85). A back bet wins (odds - 1) x stake.
 * - BOOKMAKER: a rate per 100 (85). A back bet wins odds / 100 x stake.
 * - FANCY: a run line (45) with a size per 100 (90). "Yes" (back) wins
 *   stake x size / 100 when the result reaches the line, "No" (lay) wins the
 *   stake when it does not.
 *
 * A lay bet is the other side of a back bet: the backer's profit is the
 * layer's liability, and the stake is what the layer wins.
 */
import type { MarketType } from "../schema/sports.ts"
import { toRupees } from "./money.ts"

export type Side = "back" | "lay"

/**
 * A placed or proposed bet, amounts in paise. `size` only for FANCY. An exchange bet is as many positions as it has
 * parts: each part matched at its price, and what still waits unmatched at the asked price (`waiting`).
 */
export interface Position {
  readonly selectionId: string
  readonly side: Side
  readonly odds: number
  readonly stake: number
  readonly size?: number | null | undefined
  /**
   * Unmatched, waiting at its price: it may be matched (at that price or better) or never, so only what it would lose
   * counts towards the worst case, never what it would win.
   */
  readonly waiting?: boolean | undefined
}

/** Hundredths of a price with at most two decimals (1.85 -> 185), exactly. */
const hundredths = (price: number) => Math.round(price * 100)

/**
 * What a back bet wins, or what a lay bet risks, in paise: the "profit" of
 * SPEC section 9, rounded to the nearest paisa.
 */
export const backProfit = (type: MarketType, odds: number, stake: number, size?: number | null): number => {
  switch (type) {
    case "EXCHANGE":
      return Math.round((stake * (hundredths(odds) - 100)) / 100)
    case "BOOKMAKER":
      return Math.round((stake * hundredths(odds)) / 10_000)
    case "FANCY":
      return Math.round((stake * hundredths(size ?? 100)) / 10_000)
  }
}

/** What the bet pays if it wins. */
export const winAmount = (type: MarketType, bet: Position) => (bet.side === "back" ? backProfit(type, bet.odds, bet.stake, bet.size) : bet.stake)

/** What the bet costs if it loses (its liability). */
export const liabilityOf = (type: MarketType, bet: Position) =>
  bet.side === "back" ? bet.stake : backProfit(type, bet.odds, bet.stake, bet.size)

/**
 * The bet's result when the thing it is about happens (its runner wins, or
 * the fancy result reaches its line) or not: back gains on it, lay loses.
 */
export const betResult = (type: MarketType, bet: Position, happens: boolean) =>
  happens === (bet.side === "back") ? (bet.waiting ? 0 : winAmount(type, bet)) : -liabilityOf(type, bet)

/** Exchange and bookmaker: the bet's result when `winner` wins the market. */
export const runnerOutcome = (type: MarketType, bet: Position, winner: string) => betResult(type, bet, bet.selectionId === winner)

/** Fancy: the bet's result for a final `result` (runs); a line is reached when the result is at least the line. */
export const fancyOutcome = (bet: Position, result: number) => betResult("FANCY", bet, result >= bet.odds)

/** Projected P/L of every runner of an exchange or bookmaker market: what the player ends with if that runner wins. */
export const runnerBook = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<Position>): Map<string, number> => {
  const book = new Map<string, number>()
  for (const runner of runners) {
    let total = 0
    for (const bet of bets) total += runnerOutcome(type, bet, runner)
    book.set(runner, total)
  }
  return book
}

/** How far the fancy book reaches beyond the lowest and highest line. */
export const FANCY_BOOK_MARGIN = 5

/** The fancy book: P/L for each result from the lowest line - 5 to the highest line + 5. */
export const fancyBook = (bets: ReadonlyArray<Position>, margin = FANCY_BOOK_MARGIN): Array<{ readonly result: number; readonly pl: number }> => {
  if (bets.length === 0) return []
  const lines = bets.map((bet) => Math.floor(bet.odds))
  const low = Math.max(0, Math.min(...lines) - margin)
  const high = Math.max(...lines) + margin
  const rows: Array<{ result: number; pl: number }> = []
  for (let result = low; result <= high; result++) {
    let pl = 0
    for (const bet of bets) pl += fancyOutcome(bet, result)
    rows.push({ result, pl })
  }
  return rows
}

/**
 * The results that decide a fancy market: below every line, and at each
 * line (results are runs, so never below 0). P/L only changes where a line is crossed, so these are all the bands.
 */
const fancyBands = (bets: ReadonlyArray<Position>) => {
  const lines = [...new Set(bets.map((bet) => bet.odds))].sort((a, b) => a - b)
  // Results are runs: never below 0.
  return lines.length === 0 ? [] : [lines[0]! - 1, ...lines].filter((result) => result >= 0)
}

/** Every possible P/L of a market's bets: one per runner, or one per fancy result band. */
export const outcomes = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<Position>): Array<number> => {
  if (type === "FANCY") return fancyBands(bets).map((result) => bets.reduce((sum, bet) => sum + fancyOutcome(bet, result), 0))
  return [...runnerBook(type, runners, bets).values()]
}

/**
 * The exposure of a market: the most the player can lose on it, the worst
 * outcome over its runners or fancy result bands (0 when no outcome loses).
 */
export const marketExposure = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<Position>): number => {
  if (bets.length === 0) return 0
  const worst = Math.min(0, ...outcomes(type, runners, bets))
  return worst === 0 ? 0 : -worst
}

/**
 * How much more has to be held for a new bet: the change in the market's
 * worst case. Zero or negative means the bet does not add risk (it reduces
 * it or leaves it), so it is accepted whatever the balance.
 */
export const exposureChange = (type: MarketType, runners: ReadonlyArray<string>, open: ReadonlyArray<Position>, next: Position) =>
  marketExposure(type, runners, [...open, next]) - marketExposure(type, runners, open)

/**
 * The odds-change rule: is `current` the same as or better than `requested`
 * for this side? Back wants a higher price, lay a lower one; a fancy "Yes"
 * wants a lower line and a higher size, a "No" a higher line and a lower size.
 */
export const isSameOrBetter = (
  type: MarketType,
  side: Side,
  requested: { readonly odds: number; readonly size?: number | null | undefined },
  current: { readonly odds: number; readonly size?: number | null | undefined }
) => {
  const r = hundredths(requested.odds)
  const c = hundredths(current.odds)
  if (type !== "FANCY") return side === "back" ? c >= r : c <= r
  const rs = hundredths(requested.size ?? 100)
  const cs = hundredths(current.size ?? 100)
  return side === "back" ? c <= r && cs >= rs : c >= r && cs <= rs
}

/** Prices the markets accept: exchange odds 1.01-1000 in hundredths, bookmaker rates and fancy sizes above 0, fancy lines whole. */
export const validPrice = (type: MarketType, odds: number, size?: number | null) => {
  if (!Number.isFinite(odds) || hundredths(odds) / 100 !== odds) return false
  switch (type) {
    case "EXCHANGE":
      return odds >= 1.01 && odds <= 1000
    case "BOOKMAKER":
      return odds > 0 && odds <= 10_000
    case "FANCY":
      return Number.isInteger(odds) && odds >= 0 && odds <= 10_000 && size !== undefined && size !== null && Number.isFinite(size) &&
        hundredths(size) / 100 === size && size > 0 && size <= 10_000
  }
}

/** Profit and liability of a bet the slip is about to place, in paise. */
export const slipFigures = (type: MarketType, bet: Position) => ({ profit: winAmount(type, bet), liability: liabilityOf(type, bet) })

/** An open bet (as the API shows it, rupees) as the formulas read it: its matched parts and what waits, in paise. */
export const positionsOfBet = (bet: {
  readonly selectionId: string
  readonly selectionType: Side
  readonly odds: number
  readonly oddsSize: number | null
  readonly unmatched: number
  readonly matches: ReadonlyArray<{ readonly odds: number; readonly stake: number }>
}): Array<Position> => {
  const base = { selectionId: bet.selectionId, side: bet.selectionType, size: bet.oddsSize }
  const parts: Array<Position> = bet.matches.map((match) => ({ ...base, odds: match.odds, stake: Math.round(match.stake * 100) }))
  if (bet.unmatched > 0) parts.push({ ...base, odds: bet.odds, stake: Math.round(bet.unmatched * 100), waiting: true })
  return parts
}

/** What a bet's matched parts can lose, in rupees (an unmatched part risks nothing until it is matched). */
export const matchedLiability = (bet: Parameters<typeof positionsOfBet>[0] & { readonly marketType: MarketType }) =>
  matchedOnly(positionsOfBet(bet)).reduce((sum, part) => sum + liabilityOf(bet.marketType, part), 0) / 100

/** The player's open bets as positions, by market id. */
export const positionsByMarket = (bets: ReadonlyArray<Parameters<typeof positionsOfBet>[0] & { readonly marketId: string }>) => {
  const map = new Map<string, Array<Position>>()
  for (const bet of bets) map.set(bet.marketId, [...(map.get(bet.marketId) ?? []), ...positionsOfBet(bet)])
  return map
}

/** What is matched of positions: the P/L a runner shows is of matched bets (what waits may never be matched). */
export const matchedOnly = (positions: ReadonlyArray<Position>) => positions.filter((position) => !position.waiting)

interface MarketShape {
  readonly marketId: string
  readonly marketType: MarketType
  readonly runners: ReadonlyArray<{ readonly selectionId: string }>
}

const inRupees = (book: ReadonlyMap<string, number>) => new Map([...book].map(([id, paise]) => [id, toRupees(paise)]))

/**
 * What each runner of each exchange or bookmaker market does to the player,
 * in rupees: with their matched bets (`pl`, only when they have some) and with
 * the bet being made in the slip as well, if it is matched (`next`, only for its market).
 */
export const marketBooks = (
  markets: ReadonlyArray<MarketShape>,
  open: ReadonlyMap<string, ReadonlyArray<Position>>,
  pending?: { readonly marketId: string; readonly bet: Position }
) => {
  const books = new Map<string, { readonly pl: ReadonlyMap<string, number> | undefined; readonly next: ReadonlyMap<string, number> | undefined }>()
  for (const market of markets) {
    if (market.marketType === "FANCY") continue
    const bets = open.get(market.marketId) ?? []
    const ids = market.runners.map((r) => r.selectionId)
    const matched = matchedOnly(bets)
    books.set(market.marketId, {
      pl: matched.length > 0 ? inRupees(runnerBook(market.marketType, ids, matched)) : undefined,
      next: pending?.marketId === market.marketId ? inRupees(runnerBook(market.marketType, ids, [...matched, pending.bet])) : undefined
    })
  }
  return books
}

/** Each fancy market the player has bets on: what it holds and the P/L by result, in rupees. */
export const fancyPositions = (markets: ReadonlyArray<MarketShape>, open: ReadonlyMap<string, ReadonlyArray<Position>>) => {
  const positions = new Map<string, { readonly exposure: number; readonly book: ReadonlyArray<{ readonly result: number; readonly pl: number }> }>()
  for (const market of markets) {
    const bets = open.get(market.marketId)
    if (market.marketType !== "FANCY" || !bets) continue
    positions.set(market.marketId, {
      exposure: toRupees(marketExposure("FANCY", [], bets)),
      book: fancyBook(bets).map((row) => ({ result: row.result, pl: toRupees(row.pl) }))
    })
  }
  return positions
}

/** "1.2k" for sizes on the price ladder. */
export const sizeLabel = (size: number) => (size >= 1000 ? `${(size / 1000).toFixed(size >= 10_000 ? 0 : 1)}k` : String(Math.round(size)))

/** Prices as shown: decimal odds with two decimals, rates and lines as they are. */
export const priceLabel = (price: number, type: MarketType) => (type === "EXCHANGE" ? price.toFixed(2) : String(price))

/** The tag of a bet's side, Back or Lay, for every market type (SPEC section 2, My Bets). */
export const sideLabel = (side: Side) => (side === "back" ? "Back" : "Lay")
