import { memo, startTransition, useEffect, useEffectEvent, useRef, useState } from "react"
import { priceLabel, sizeLabel } from "../../domain/betting.ts"
import type { Market } from "../../schema/sports.ts"
import { type OddsBooks, usePorts } from "../ports.ts"

/** How long a changed price stays highlighted. */
export const FLASH_MS = 300

// Highlights switched off together, by one timer, however many cells changed.
const lit = new Map<HTMLElement, number>()
let clearing: ReturnType<typeof setTimeout> | undefined
const clearLit = () => {
  clearing = undefined
  const now = performance.now()
  let next = Infinity
  for (const [element, until] of lit) {
    if (until <= now) {
      element.style.opacity = "0"
      lit.delete(element)
    } else next = Math.min(next, until)
  }
  if (next !== Infinity) clearing = setTimeout(clearLit, next - now)
}
/** Shows a cell's highlight for FLASH_MS: a small paint of a contained cell, no animation layers to composite. */
const flashOn = (element: HTMLElement) => {
  element.style.opacity = "1"
  lit.set(element, performance.now() + FLASH_MS)
  clearing ??= setTimeout(clearLit, FLASH_MS)
}

export interface Pick {
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly price: number
  readonly size: number
}

/** A click on a price: its market, its runner and the price as shown. */
export type PickHandler = (market: Market, runner: { selectionId: string; name: string }, pick: Pick) => void

/**
 * One value of a market's book, re-read on the market's changes only. A change re-renders as a transition, not in
 * `useSyncExternalStore`'s blocking lane: a batch that moves a hundred cells is rendered in slices between the
 * page's other work (a tap, a scroll) instead of as one long task, ten times a second. A cell may show a price one
 * frame after its neighbour; the next batch is 100 ms away anyway.
 */
const useMarketValue = <T extends string>(marketId: string, read: (books: OddsBooks) => T): T => {
  // Read, not subscribed to: cells render only once the books are in (EventMarkets waits for them).
  const books = usePorts().oddsBooks.get()
  if (!books) throw new Error("views: an odds cell rendered before the odds books loaded (EventMarkets waits for them)")
  const [value, setValue] = useState(() => read(books))
  const update = useEffectEvent(() => {
    const next = read(books)
    startTransition(() => setValue(next))
  })
  useEffect(() => {
    update() // a change between the first render and this subscription
    return books.subscribeMarket(marketId, () => update())
  }, [books, marketId])
  return value
}

/**
 * One price of one runner. It subscribes to its own market in the odds
 * store and re-renders only when its own price, size or the market's status
 * changes; a change rings the cell for a moment (no re-render), keeping its colour. Its
 * props are the market's own objects and the page's one handler, so a click
 * elsewhere (the slip opening, a P/L changing) does not re-render it.
 */
export const OddsCell = memo(({ market, runner, runnerName = runner.name, side, level = 0, onPick }: {
  market: Market
  runner: { selectionId: string; name: string }
  /** The runner as the cell's label names it (a fancy line by the market's name). */
  runnerName?: string
  side: "back" | "lay"
  level?: number
  onPick: PickHandler
}) => {
  const { marketId, marketType } = market
  const { selectionId } = runner
  const key = useMarketValue(marketId, (odds) => {
    const book = odds.book(marketId)
    const price = odds.level(marketId, selectionId, side, level)
    return `${book?.status ?? "NONE"}|${price ? `${price.price}|${price.size}` : ""}`
  })
  const [status, priceText, sizeText] = key.split("|")
  const price = priceText ? Number(priceText) : undefined
  const size = sizeText ? Number(sizeText) : 0
  const flash = useRef<HTMLSpanElement>(null)
  const previous = useRef(priceText)
  useEffect(() => {
    const overlay = flash.current
    if (!overlay || previous.current === undefined || previous.current === "" || previous.current === priceText) {
      previous.current = priceText
      return
    }
    previous.current = priceText
    flashOn(overlay)
  }, [priceText])
  const open = status === "OPEN" && price !== undefined
  const label = marketType === "FANCY" ? (side === "back" ? "Yes" : "No") : side === "back" ? "Back" : "Lay"
  return (
    <button
      type="button"
      disabled={!open}
      data-testid={`odds-${marketId}-${selectionId}-${side}-${level}`}
      aria-label={open ? `${label} ${runnerName} at ${priceLabel(price, marketType)}` : `${label} ${runnerName}: no price`}
      onClick={() => open && onPick(market, runner, { selectionId, side, price, size })}
      // Contained: a new price lays out and paints this cell only.
      style={{ contain: "strict" }}
      className={`relative flex h-11 min-w-0 flex-col items-center justify-center rounded px-1 leading-tight transition-opacity disabled:cursor-not-allowed disabled:opacity-50 ${
        side === "back" ? (level === 0 ? "bg-back" : "bg-back/60") : level === 0 ? "bg-lay" : "bg-lay/60"
      } text-[#10151f] hover:brightness-95 focus-visible:(outline-2 outline-brand)`}
    >
      {/* A ring, not a fill: prices change many times a second, and a tinted cell would hide the side's blue or pink. */}
      <span ref={flash} aria-hidden="true" className="pointer-events-none absolute inset-0 rounded border-2 border-warn opacity-0" data-testid="price-flash" />
      <span className="text-sm font-700">{price === undefined ? "–" : priceLabel(price, marketType)}</span>
      {price !== undefined ? <span className="text-[10px] opacity-75">{marketType === "FANCY" ? size : sizeLabel(size)}</span> : null}
    </button>
  )
})

/** "SUSPENDED" / "CLOSED" over a market whose book says so; subscribes like a cell. */
export const MarketState = memo(({ marketId }: { marketId: string }) => {
  const status = useMarketValue(marketId, (odds) => odds.book(marketId)?.status ?? "NONE")
  if (status === "OPEN" || status === "NONE") return null
  return (
    <div className="pointer-events-none absolute inset-0 z-1 flex items-center justify-center bg-bg/60" data-testid={`market-status-${marketId}`}>
      <span className="rounded bg-bad/90 px-3 py-1 text-xs font-700 uppercase tracking-wide text-white">{status === "SUSPENDED" ? "Suspended" : "Closed"}</span>
    </div>
  )
})
