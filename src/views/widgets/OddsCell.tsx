import { memo, useCallback, useEffect, useRef, useSyncExternalStore } from "react"
import type { MarketType } from "../../schema/sports.ts"
import { odds } from "../../services/odds.ts"
import { priceLabel, sizeLabel } from "../betting.ts"

export interface Pick {
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly price: number
  readonly size: number
}

const useMarketValue = <T extends string>(marketId: string, read: () => T) => {
  const subscribe = useCallback((listener: () => void) => odds.subscribeMarket(marketId, listener), [marketId])
  return useSyncExternalStore(subscribe, read, read)
}

/**
 * One price of one runner. It subscribes to its own market in the odds
 * store and re-renders only when its own price, size or the market's status
 * changes; a change flashes the cell (Web Animations, no re-render).
 */
export const OddsCell = memo(({ marketId, marketType, selectionId, runnerName, side, level = 0, onPick, className = "" }: {
  marketId: string
  marketType: MarketType
  selectionId: string
  runnerName: string
  side: "back" | "lay"
  level?: number
  onPick: (pick: Pick) => void
  className?: string
}) => {
  const key = useMarketValue(marketId, () => {
    const book = odds.book(marketId)
    const price = odds.level(marketId, selectionId, side, level)
    return `${book?.status ?? "NONE"}|${price ? `${price.price}|${price.size}` : ""}`
  })
  const [status, priceText, sizeText] = key.split("|")
  const price = priceText ? Number(priceText) : undefined
  const size = sizeText ? Number(sizeText) : 0
  const ref = useRef<HTMLButtonElement>(null)
  const previous = useRef(priceText)
  useEffect(() => {
    if (previous.current !== undefined && previous.current !== "" && previous.current !== priceText) {
      // A ring and a brighter cell for a moment; the cell keeps its back or lay colour.
      ref.current?.animate?.([
        { boxShadow: "inset 0 0 0 2px rgb(var(--warn))", filter: "brightness(1.25)" },
        { boxShadow: "inset 0 0 0 0 rgb(var(--warn) / 0)", filter: "none" }
      ], { duration: 350, easing: "ease-out" })
    }
    previous.current = priceText
  }, [priceText])
  const open = status === "OPEN" && price !== undefined
  const label = marketType === "FANCY" ? (side === "back" ? "Yes" : "No") : side === "back" ? "Back" : "Lay"
  return (
    <button
      ref={ref}
      type="button"
      disabled={!open}
      data-testid={`odds-${marketId}-${selectionId}-${side}-${level}`}
      aria-label={open ? `${label} ${runnerName} at ${priceLabel(price, marketType)}` : `${label} ${runnerName}: no price`}
      onClick={() => open && onPick({ selectionId, side, price, size })}
      className={`flex h-11 min-w-0 flex-col items-center justify-center rounded px-1 leading-tight transition-opacity disabled:cursor-not-allowed disabled:opacity-50 ${
        side === "back" ? (level === 0 ? "bg-back" : "bg-back/60") : level === 0 ? "bg-lay" : "bg-lay/60"
      } text-[#10151f] hover:brightness-95 focus-visible:(outline-2 outline-brand) ${className}`}
    >
      <span className="text-sm font-700">{price === undefined ? "–" : priceLabel(price, marketType)}</span>
      {price !== undefined ? <span className="text-[10px] opacity-75">{marketType === "FANCY" ? size : sizeLabel(size)}</span> : null}
    </button>
  )
})

/** "SUSPENDED" / "CLOSED" over a market whose book says so; subscribes like a cell. */
export const MarketState = memo(({ marketId }: { marketId: string }) => {
  const status = useMarketValue(marketId, () => odds.book(marketId)?.status ?? "NONE")
  if (status === "OPEN" || status === "NONE") return null
  return (
    <div className="pointer-events-none absolute inset-0 z-1 flex items-center justify-center bg-bg/60" data-testid={`market-status-${marketId}`}>
      <span className="rounded bg-bad/90 px-3 py-1 text-xs font-700 uppercase tracking-wide text-white">{status === "SUSPENDED" ? "Suspended" : "Closed"}</span>
    </div>
  )
})
