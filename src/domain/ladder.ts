/**
 * The exchange's price ladder (1.01 .. 1000): its bands and their ticks, for
 * the price model on the server and for stepping a price in the client.
 */

// The exchange ladder: price bands and their tick.
const BANDS: ReadonlyArray<readonly [upTo: number, tick: number]> = [
  [2, 0.01], [3, 0.02], [4, 0.05], [6, 0.1], [10, 0.2], [20, 0.5], [30, 1], [50, 2], [100, 5], [1000, 10]
]

const round2 = (n: number) => Math.round(n * 100) / 100

const tickAt = (price: number) => BANDS.find(([upTo]) => price < upTo)?.[1] ?? 10

/** The ladder price at or below `price`, kept within 1.01 .. 1000. */
export const ladderFloor = (price: number) => {
  const p = Math.min(1000, Math.max(1.01, price))
  const tick = tickAt(p)
  const lower = BANDS[BANDS.findIndex(([upTo]) => p < upTo) - 1]?.[0] ?? 1
  // The small epsilon absorbs floating-point error on prices already on the ladder (1.9 / 0.01).
  return round2(Math.max(1.01, lower + Math.floor((p - lower) / tick + 1e-7) * tick))
}

export const ladderUp = (price: number) => round2(Math.min(1000, price + tickAt(price)))
export const ladderDown = (price: number) => {
  if (price <= 1.01) return 1.01
  // The tick of the band just below: 2.00 steps down to 1.99, 2.02 to 2.00.
  return ladderFloor(round2(price - tickAt(price - 1e-9)))
}
