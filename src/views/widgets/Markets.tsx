import { lazy, memo, Suspense, useState } from "react"
import { useAtLeast } from "../breakpoints.ts"
import { formatAmount } from "../../domain/money.ts"
import type { Market } from "../../schema/sports.ts"
import { NoFancyCashOut } from "./CashOut.tsx"
import { ChartBox } from "./ChartBox.tsx"
import { MarketRules } from "./MarketRules.tsx"
import { MarketState, OddsCell, type PickHandler } from "./OddsCell.tsx"

export type { PickHandler }

// uPlot and the chart's flow come in their own chunk when a player first opens a chart.
const PriceChart = lazy(() => import("./PriceChart.tsx"))

const plClass = (value: number) => (value > 0 ? "text-ok" : value < 0 ? "text-bad" : "text-muted")

/** A runner's projected P/L under its name: now, and with the bet in the slip. */
const RunnerPL = ({ now, next }: { now: number | undefined; next: number | undefined }) => {
  if (now === undefined && next === undefined) return null
  return (
    <span className="block text-xs" data-testid="runner-pl">
      {now !== undefined ? <span className={`font-700 ${plClass(now)}`}>{formatAmount(now)}</span> : null}
      {next !== undefined ? <span className={`ml-1 ${plClass(next)}`}>» {formatAmount(next)}</span> : null}
    </span>
  )
}

export interface MarketProps {
  readonly market: Market
  /** P/L per selection id of the player's open bets (rupees), and with the slip's bet. */
  readonly pl: ReadonlyMap<string, number> | undefined
  readonly next: ReadonlyMap<string, number> | undefined
  readonly onPick: PickHandler
  readonly slip?: React.ReactNode
  /** The Cash Out button, where the player holds a position. */
  readonly cashOut?: React.ReactNode
}

const MarketHeader = ({ market, label, cashOut, chart }: { market: Market; label: string; cashOut?: React.ReactNode; chart?: React.ReactNode }) => (
  <div className="flex items-center gap-2 bg-raised px-3 py-2">
    <h2 id={`market-${market._id}`} className="m-0 flex flex-1 items-center justify-between gap-2 text-sm font-700">
      <span>{market.name}</span>
      <span className="text-xs font-500 text-muted">{label}</span>
    </h2>
    {cashOut}
    {chart}
    <MarketRules id={market._id} name={market.name} marketType={market.marketType} />
  </div>
)

/** The button that shows or hides a market's price chart. */
const ChartToggle = ({ market, open, onToggle }: { market: Market; open: boolean; onToggle: () => void }) => (
  <button
    type="button"
    aria-expanded={open}
    aria-controls={`chart-${market._id}`}
    aria-label={`Price chart: ${market.name}`}
    onClick={onToggle}
    className={`grid h-5 shrink-0 place-items-center rounded-full border px-1.5 text-[11px] font-700 ${open ? "border-brand text-fg" : "border-line text-muted hover:text-fg"}`}
  >
    Chart
  </button>
)

/** The price levels of each side, in the order they stand (the best of both nearest the middle). */
const DEPTH = { back: [2, 1, 0], lay: [0, 1, 2] } as const
const BEST_ONLY = { back: [0], lay: [0] } as const

/**
 * Exchange: three back prices (best nearest the middle) and three lay
 * prices per runner; on narrow screens only the best of each (the deeper
 * cells are not rendered there, so a phone does not re-render what it hides).
 */
export const ExchangeMarket = memo(({ market, pl, next, onPick, slip, cashOut }: MarketProps) => {
  const [chart, setChart] = useState(false)
  const levels = useAtLeast("md") ? DEPTH : BEST_ONLY
  return (
    <section className="card overflow-hidden" aria-labelledby={`market-${market._id}`} data-testid={`market-${market.marketId}`}>
      <MarketHeader market={market} label="Exchange" cashOut={cashOut} chart={<ChartToggle market={market} open={chart} onToggle={() => setChart(!chart)} />} />
      <div className="relative">
        <div className="grid grid-cols-[1fr_repeat(2,3.6rem)] md:grid-cols-[1fr_repeat(6,3.6rem)] gap-1 px-3 py-1 text-center text-[11px] font-700 uppercase text-muted">
          <span />
          <span className="hidden md:block" />
          <span className="hidden md:block" />
          <span>Back</span>
          <span>Lay</span>
          <span className="hidden md:block" />
          <span className="hidden md:block" />
        </div>
        {market.runners.map((runner) => (
          <div key={runner.selectionId} className="grid grid-cols-[1fr_repeat(2,3.6rem)] md:grid-cols-[1fr_repeat(6,3.6rem)] items-center gap-1 border-t border-line px-3 py-1">
            <div className="min-w-0">
              <span className="block truncate text-sm font-600">{runner.name}</span>
              <RunnerPL now={pl?.get(runner.selectionId)} next={next?.get(runner.selectionId)} />
            </div>
            {levels.back.map((level) => (
              <OddsCell key={`b${level}`} market={market} runner={runner} side="back" level={level} onPick={onPick} />
            ))}
            {levels.lay.map((level) => (
              <OddsCell key={`l${level}`} market={market} runner={runner} side="lay" level={level} onPick={onPick} />
            ))}
          </div>
        ))}
        <MarketState marketId={market.marketId} />
      </div>
      {chart ? (
        <div id={`chart-${market._id}`}>
          <Suspense fallback={<ChartBox busy />}><PriceChart market={market} /></Suspense>
        </div>
      ) : null}
      {slip ? <div className="border-t border-line p-2">{slip}</div> : null}
    </section>
  )
})

/** Bookmaker: one back and one lay rate (per 100) per runner. */
export const BookmakerMarket = memo(({ market, pl, next, onPick, slip, cashOut }: MarketProps) => (
  <section className="card overflow-hidden" aria-labelledby={`market-${market._id}`} data-testid={`market-${market.marketId}`}>
    <MarketHeader market={market} label="Bookmaker · rate per 100" cashOut={cashOut} />
    <div className="relative">
      <div className="grid grid-cols-[1fr_repeat(2,4rem)] gap-1 px-3 py-1 text-center text-[11px] font-700 uppercase text-muted">
        <span />
        <span>Back</span>
        <span>Lay</span>
      </div>
      {market.runners.map((runner) => (
        <div key={runner.selectionId} className="grid grid-cols-[1fr_repeat(2,4rem)] items-center gap-1 border-t border-line px-3 py-1">
          <div className="min-w-0">
            <span className="block truncate text-sm font-600">{runner.name}</span>
            <RunnerPL now={pl?.get(runner.selectionId)} next={next?.get(runner.selectionId)} />
          </div>
          <OddsCell market={market} runner={runner} side="back" onPick={onPick} />
          <OddsCell market={market} runner={runner} side="lay" onPick={onPick} />
        </div>
      ))}
      <MarketState marketId={market.marketId} />
    </div>
    {slip ? <div className="border-t border-line p-2">{slip}</div> : null}
  </section>
))

/**
 * Fancy lines: No (lay) and Yes (back), each with its size. With open bets
 * on a line, what the player risks and its book: P/L for each result from
 * the lowest line - 5 to the highest + 5.
 */
export const FancyMarkets = memo(({ markets, positions, onPick, slipFor, slip }: {
  markets: ReadonlyArray<Market>
  positions: ReadonlyMap<string, { exposure: number; book: ReadonlyArray<{ result: number; pl: number }> }>
  onPick: PickHandler
  slipFor: string | undefined
  slip: React.ReactNode
}) => (
  <section className="card overflow-hidden" aria-labelledby="fancy-heading" data-testid="fancy-markets">
    <div className="flex items-center gap-2 bg-raised px-3 py-2">
      <h2 id="fancy-heading" className="m-0 flex flex-1 items-center justify-between text-sm font-700">
        <span>Fancy</span>
        <span className="text-xs font-500 text-muted">runs · size per 100</span>
      </h2>
      <MarketRules id="fancy" name="Fancy" marketType="FANCY" />
    </div>
    <div className="grid grid-cols-[1fr_repeat(2,4rem)] gap-1 px-3 py-1 text-center text-[11px] font-700 uppercase text-muted">
      <span />
      <span>No</span>
      <span>Yes</span>
    </div>
    {markets.map((market) => {
      const runner = market.runners[0] ?? { selectionId: market.marketId, name: market.name }
      const held = positions.get(market.marketId)
      return (
        <div key={market._id} data-testid={`market-${market.marketId}`}>
          <div className="relative grid grid-cols-[1fr_repeat(2,4rem)] items-center gap-1 border-t border-line px-3 py-1">
            <div className="min-w-0">
              <span className="block truncate text-sm font-600">{market.name}</span>
              {held !== undefined ? (
                <details className="text-xs">
                  <summary className="cursor-pointer text-bad" data-testid="fancy-exposure">{formatAmount(-held.exposure)}</summary>
                  <table className="mt-1 w-40" aria-label={`${market.name} book`}>
                    <thead><tr className="text-muted"><th className="text-left font-500">Runs</th><th className="text-right font-500">P/L</th></tr></thead>
                    <tbody>
                      {held.book.map((row) => (
                        <tr key={row.result}><td>{row.result}</td><td className={`text-right font-700 ${plClass(row.pl)}`}>{formatAmount(row.pl)}</td></tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              ) : null}
              {held !== undefined ? <NoFancyCashOut /> : null}
            </div>
            <OddsCell market={market} runner={runner} runnerName={market.name} side="lay" onPick={onPick} />
            <OddsCell market={market} runner={runner} runnerName={market.name} side="back" onPick={onPick} />
            <MarketState marketId={market.marketId} />
          </div>
          {slipFor === market.marketId ? <div className="border-t border-line p-2">{slip}</div> : null}
        </div>
      )
    })}
  </section>
))
