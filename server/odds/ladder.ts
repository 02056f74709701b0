/**
 * How a market shows a chance, free of I/O: the exchange's price ladder, the
 * bookmaker's rates per 100, each with the house's margin. A runner's back
 * price is never above 1 / (the chance it is priced from) and its lay never
 * below, so every market priced from the same chances leaves a player no
 * combination that wins whatever happens (src/domain/eventBook.ts).
 *
 * What is on offer at each level (the sizes) is a separate thing: the
 * market's liquidity, kept and moved on its own (`LadderSizes`).
 */
import { ladderDown, ladderFloor, ladderUp } from "../../src/domain/ladder.ts"
import type { PriceLevel } from "../../src/schema/betting.ts"
import type { Rng } from "./simulation.ts"

/** The ladder price at or below `price`; none below 1.01. */
const atOrBelow = (price: number) => (price < 1.01 ? undefined : ladderFloor(price))
/** The ladder price at or above `price`; none above 1000. */
const atOrAbove = (price: number) => {
  if (price > 1000) return undefined
  const floor = ladderFloor(price)
  return floor >= price - 1e-9 ? floor : ladderUp(floor)
}

/** The house's margin on each side of a market type: backs are offered this much under the fair price, lays over it. */
export const MARGINS = {
  EXCHANGE: { back: 0.015, lay: 0.015 },
  BOOKMAKER: { back: 0.04, lay: 0.01 }
} as const

/** What is on offer at each price level of a runner, best first: the market's liquidity, apart from its prices. */
export interface LadderSizes {
  readonly back: Array<number>
  readonly lay: Array<number>
}

export const sizeOf = (random: Rng) => Math.round(100 + random() * random() * 50_000)

/** Fresh sizes for a runner with `levels` levels a side. */
export const newSizes = (levels: number, random: Rng): LadderSizes => ({
  back: Array.from({ length: levels }, () => sizeOf(random)),
  lay: Array.from({ length: levels }, () => sizeOf(random))
})

/** One level's size moves a little (money taken and offered): a new size now and then, which also refills a level matched bets emptied. */
export const flickerSizes = (sizes: LadderSizes, random: Rng) => {
  const side = random() < 0.5 ? sizes.back : sizes.lay
  const level = Math.floor(random() * side.length)
  const size = side[level]!
  side[level] = random() < 0.3 ? sizeOf(random) : size === 0 ? 0 : Math.max(2, Math.round(size * (0.8 + random() * 0.4)))
}

/** The chances an outcome's prices come from: its back from the higher, its lay from the lower. */
export interface ChanceRange {
  readonly high: number
  readonly low: number
}

/** Exchange prices for one runner: three back levels under 1/high with the margin, three lay levels over 1/low. */
export const exchangeLevels = (chance: ChanceRange, sizes: LadderSizes): { back: Array<PriceLevel>; lay: Array<PriceLevel> } => {
  const back0 = atOrBelow((1 / Math.max(chance.high, 1e-9)) * (1 - MARGINS.EXCHANGE.back))
  const fairLay = (1 / Math.max(chance.low, 1e-9)) * (1 + MARGINS.EXCHANGE.lay)
  const lay0 = atOrAbove(back0 === undefined ? fairLay : Math.max(fairLay, ladderUp(back0)))
  const back: Array<PriceLevel> = []
  const lay: Array<PriceLevel> = []
  for (let level = 0, b = back0, l = lay0; level < sizes.back.length; level++) {
    // The ladder ends at 1.01 and 1000: no level twice.
    if (b !== undefined && b < (back.at(-1)?.price ?? Infinity)) back.push({ price: b, size: sizes.back[level]! })
    if (l !== undefined && l > (lay.at(-1)?.price ?? 0)) lay.push({ price: l, size: sizes.lay[level]! })
    b = b === undefined ? undefined : ladderDown(b)
    l = l === undefined ? undefined : ladderUp(l)
  }
  return { back, lay }
}

/** Bookmaker rates per 100 for one runner: a back rate under the fair rate with the margin, a lay rate over it (two points above the back at least). */
export const bookmakerLevels = (chance: ChanceRange, sizes: LadderSizes): { back: Array<PriceLevel>; lay: Array<PriceLevel> } => {
  if (chance.high > 0.97 || chance.low < 0.01) return { back: [], lay: [] }
  const backRate = Math.floor(((1 / chance.high) * (1 - MARGINS.BOOKMAKER.back) - 1) * 100 + 1e-9)
  const layRate = Math.max(backRate + 2, Math.ceil(((1 / chance.low) * (1 + MARGINS.BOOKMAKER.lay) - 1) * 100 - 1e-9))
  return {
    back: backRate >= 1 ? [{ price: backRate, size: sizes.back[0]! }] : [],
    lay: layRate <= 10_000 ? [{ price: layRate, size: sizes.lay[0]! }] : []
  }
}
