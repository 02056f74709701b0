/** Prices staff set by hand: an operator's price for a runner, pinned once checked against the event's other books. */
import { checkEventBooks, type EventBookCheck } from "../../src/domain/eventBook.ts"
import type { MarketBook, MarketPricePayload, PriceLevel } from "../../src/schema/betting.ts"
import { ladderDown, ladderFloor, ladderUp } from "../../src/domain/ladder.ts"
import { type Pin, pricingOf } from "./model.ts"
import { bookOf, close, type EventState, type MarketState, priceMarkets } from "./prices.ts"

export type ManualPriceRefusal = "unknownSelection" | "offLadder" | { readonly contradicts: EventBookCheck | undefined }

/**
 * An operator's price for one runner (and optionally the market's status):
 * the sides given are pinned and kept as given (an exchange back price
 * snapped to the ladder, with two more levels; a fancy's Yes and No lines
 * both pinned, the one not given as it is shown); the other runners and the
 * event's other markets follow the model within every pin. Refused, with
 * nothing changed, when the event's books would then let a player win
 * whatever happens.
 */
export const setManualPrice = (
  market: MarketState,
  event: EventState,
  markets: ReadonlyArray<MarketState>,
  input: MarketPricePayload,
  now: number
): MarketBook | ManualPriceRefusal => {
  const selectionId = input.selectionId ?? market.runners[0]?.selectionId
  const runner = market.book.runners.find((r) => r.selectionId === selectionId)
  if (!selectionId || !market.runners.some((r) => r.selectionId === selectionId)) return "unknownSelection"
  // Exchange odds live on the ladder, 1.01 to 1000; the lay side is kept as given, so it must be on it already.
  const offLadder = (level: { price: number } | undefined) => level !== undefined && level.price < 1.01
  if (market.type === "EXCHANGE" && (offLadder(input.back) || offLadder(input.lay))) return "offLadder"
  const ladder = (first: PriceLevel, step: (p: number) => number) => {
    if (market.type !== "EXCHANGE") return [first]
    const levels = [first]
    for (let i = 1; i < 3; i++) levels.push({ price: step(levels[i - 1]!.price), size: first.size })
    return levels
  }
  let pins = new Map(market.pins)
  if (input.back || input.lay) {
    const before = pins.get(selectionId)
    const shown = market.type === "FANCY" ? runner : undefined
    const back = input.back ? ladder(market.type === "EXCHANGE" ? { ...input.back, price: ladderFloor(input.back.price) } : input.back, ladderDown) : before?.back ?? shown?.back
    const lay = input.lay ? ladder(input.lay, ladderUp) : before?.lay ?? shown?.lay
    pins.set(selectionId, { ...(back ? { back } : {}), ...(lay ? { lay } : {}) })
  }
  const held = input.status ? input.status === "SUSPENDED" : market.held
  const closed = input.status ? input.status === "CLOSED" : market.closed
  // Tried first on copies: the event's books as they would be, every market open (a suspension ends).
  const attempt = (tried: Map<string, Pin>) => {
    const pricing = pricingOf(event, markets, { marketId: market.externalId, pins: tried })
    if (!pricing) return { problems: [], spaces: [], contradicts: true }
    const trial = markets.filter((m) => !(m === market ? closed : m.closed)).map((m) =>
      ({ claim: m.claim, book: bookOf(m, event, pricing, now, m === market ? tried : m.pins, "OPEN") }))
    const check = checkEventBooks(trial)
    return { ...check, contradicts: check.problems.length > 0 }
  }
  let check = attempt(pins)
  // The market's other runners an operator priced before and this price contradicts go back to the model: a
  // market is moved runner by runner.
  const own = pins.get(selectionId)
  if (check.contradicts && own && pins.size > 1) {
    const alone = new Map([[selectionId, own]])
    const retried = attempt(alone)
    if (!retried.contradicts) [pins, check] = [alone, retried]
  }
  if (check.contradicts) return { contradicts: check.problems.length > 0 ? check : undefined }
  market.pins = pins
  market.held = held
  if (closed) close(market)
  else market.closed = false
  priceMarkets(event, markets, markets, now)
  return market.book
}
