import { useSelector } from "@xstate/react"
import { useCallback, useMemo } from "react"
import type uPlot from "uplot"
import type { FlowRef } from "../../machines/flows.ts"
import type { Market } from "../../schema/sports.ts"
import { useFlow } from "../flows.ts"
import { ChartBox } from "./ChartBox.tsx"
import { themeColor, usePlot } from "./plot.ts"

/** Each runner's line, in the theme's colours. */
const COLORS = ["back", "lay", "brand", "ok", "warn", "bad"]
/** The plot's height; with its legend it fills the box (ChartBox). */
const HEIGHT = 150

/**
 * An exchange market's best back prices over the last hour (the `priceChart`
 * flow), one line per runner, moving as the market's books come. Its own
 * chunk with uPlot: loaded only when the player opens a chart.
 */
const PriceChart = ({ market }: { market: Market }) => {
  const flow = useFlow("priceChart", { id: `chart.${market.marketId}`, input: { marketId: market.marketId } })
  return <ChartBox busy={!flow}>{flow ? <PriceChartView flow={flow} market={market} /> : null}</ChartBox>
}

const PriceChartView = ({ flow, market }: { flow: FlowRef<"priceChart">; market: Market }) => {
  const series = useSelector(flow, (s) => s.context.series)
  const failed = useSelector(flow, (s) => s.hasTag("failed"))
  const loading = useSelector(flow, (s) => s.hasTag("loading"))
  const nameOf = useMemo(() => new Map(market.runners.map((r) => [r.selectionId, r.name])), [market.runners])
  const runners = useMemo(() => series.runners.map((r) => r.selectionId).join(), [series.runners])
  const options = useCallback((element: HTMLElement): Omit<uPlot.Options, "width"> => ({
    height: HEIGHT,
    ms: 1,
    legend: { show: true, live: false },
    cursor: { y: false },
    scales: { x: { time: true } },
    series: [
      {},
      ...runners.split(",").filter(Boolean).map((id, i) => ({
        label: nameOf.get(id) ?? id,
        stroke: themeColor(element, COLORS[i % COLORS.length]!),
        width: 2,
        value: (_: uPlot, price: number | null) => (price === null ? "–" : price.toFixed(2))
      }))
    ],
    axes: [
      { stroke: themeColor(element, "muted"), grid: { stroke: themeColor(element, "line"), width: 1 } },
      { stroke: themeColor(element, "muted"), grid: { stroke: themeColor(element, "line"), width: 1 }, size: 44 }
    ]
  }), [runners, nameOf])
  const data = useMemo((): uPlot.AlignedData => [[...series.times], ...series.runners.map((r) => [...r.prices])], [series])
  const box = usePlot(options, data)
  if (failed) {
    return (
      <p className="m-0 flex items-center justify-between gap-2 text-sm text-muted" role="status">
        The price chart could not be loaded.
        <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => flow.send({ type: "chart.retry" })}>Try again</button>
      </p>
    )
  }
  const last = series.runners.map((r) => `${nameOf.get(r.selectionId) ?? r.selectionId} ${r.prices.at(-1)?.toFixed(2) ?? "no price"}`)
  const label = loading ? `${market.name} price chart: loading` : `${market.name} price chart, last hour, best back price: ${last.join(", ")}`
  return <div ref={box} role="img" aria-label={label} aria-busy={loading} data-points={series.times.length} data-testid="price-chart" className="price-chart" />
}

export default PriceChart
