import { useEffect, useRef } from "react"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

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
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const plot = new uPlot(
      {
        title: props.title,
        width: Math.max(280, element.clientWidth),
        height: 180,
        scales: { x: { time: true } },
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
        axes: [{}, { size: 70 }]
      },
      [props.days.map(secondsOf), ...props.series.map((s) => [...s.values])],
      element
    )
    return () => plot.destroy()
  }, [props.title, props.days, props.series])
  return <div ref={box} className="chart" aria-hidden="true" data-chart={props.title} />
}
