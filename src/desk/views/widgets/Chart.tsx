import { useCallback, useMemo } from "react"
import type uPlot from "uplot"
import { usePlot } from "../../../views/widgets/plot.ts"

export interface Series {
  readonly label: string
  readonly color: string
  readonly values: ReadonlyArray<number>
}

/** India midnight of a "YYYY-MM-DD" day, in seconds (uPlot's time axis). */
const secondsOf = (day: string) => Date.parse(`${day}T00:00:00+05:30`) / 1000

/**
 * A line chart of days (uPlot, only in the desk's bundle): one line per
 * series, with its legend; the numbers are shown beside it as text, so the
 * chart itself is decoration for assistive technology.
 */
export const Chart = (props: { readonly title: string; readonly days: ReadonlyArray<string>; readonly series: ReadonlyArray<Series> }) => {
  const { title, days, series } = props
  const options = useCallback(() => ({
    title,
    height: 180,
    scales: { x: { time: true } },
    series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
    axes: [{}, { size: 70 }]
  }), [title, series])
  const data = useMemo((): uPlot.AlignedData => [days.map(secondsOf), ...series.map((s) => [...s.values])], [days, series])
  const box = usePlot(options, data)
  return <div ref={box} className="chart" aria-hidden="true" data-chart={title} />
}
