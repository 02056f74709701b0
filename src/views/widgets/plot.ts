import { useEffect, useRef } from "react"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

/** One of the theme's colours (a `--name: r g b` custom property) as canvas can draw it. */
export const themeColor = (element: Element, name: string) => `rgb(${getComputedStyle(element).getPropertyValue(`--${name}`).trim()})`

/**
 * A uPlot chart in the returned element's box, as wide as it (it follows the
 * box's width, so it fits a phone), made again when `options` change (keep
 * them memoised) and given new `data` without being made again. uPlot is
 * heavy: only chunks loaded on demand import this (the desk, the event page's
 * price charts).
 */
export const usePlot = (options: (element: HTMLElement) => Omit<uPlot.Options, "width">, data: uPlot.AlignedData) => {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | undefined>(undefined)
  const latest = useRef(data)
  latest.current = data
  useEffect(() => {
    const element = box.current
    if (!element) return
    const made = options(element)
    const chart = new uPlot({ ...made, width: Math.max(240, element.clientWidth) }, latest.current, element)
    plot.current = chart
    const resized = new ResizeObserver(() => chart.setSize({ width: Math.max(240, element.clientWidth), height: made.height }))
    resized.observe(element)
    return () => {
      resized.disconnect()
      chart.destroy()
      plot.current = undefined
    }
  }, [options])
  useEffect(() => {
    plot.current?.setData(data)
  }, [data])
  return box
}
