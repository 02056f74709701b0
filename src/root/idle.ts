/**
 * Work that must stay off the first paint's path (real-user vitals, the
 * service worker's registration): it runs once the page has loaded, painted
 * content and the browser is idle. The load event can come before the first
 * paint, so both are waited for.
 */

/** Runs `run` once the page has painted content (at once when it already has, or cannot tell). */
const afterFirstPaint = (run: () => void) => {
  if (typeof PerformanceObserver === "undefined" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) return run()
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName("first-contentful-paint").length === 0) return
    observer.disconnect()
    run()
  })
  observer.observe({ type: "paint", buffered: true })
}

const idle = (run: () => void) => (typeof requestIdleCallback === "function" ? requestIdleCallback(run, { timeout: 5000 }) : setTimeout(run, 2000))

/** Runs `run` once the page has loaded and painted and the browser is idle; the returned function cancels it. */
export const whenSettled = (run: () => void): (() => void) => {
  let cancelled = false
  const go = () => afterFirstPaint(() => idle(() => {
    if (!cancelled) run()
  }))
  if (document.readyState === "complete") go()
  else addEventListener("load", go, { once: true })
  return () => {
    cancelled = true
    removeEventListener("load", go)
  }
}
