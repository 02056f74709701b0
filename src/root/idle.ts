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

let openLandingPainted = () => {}
let landingArmed = false

/**
 * Resolves once the landing page has painted what the catalogue lets it show (`catalogueSettled`). What that paint
 * does not need waits for it (the banners off the home page, flows the page does not name first:
 * src/views/firstPages.ts), so it takes no bandwidth from it.
 */
export const landingPainted = new Promise<void>((resolve) => {
  openLandingPainted = resolve
})

/**
 * The sports answer is in: `landingPainted` resolves once that has been rendered and painted, seen as a largest
 * paint after this moment (no timer: a page whose clock is stopped still gets its flows). A page painting nothing
 * larger than its loader, or a visitor who scrolled (largest paints are no longer reported), waits a second: the
 * preloader covers the page that long after the catalogue anyway (SPEC section 9).
 */
export const catalogueSettled = () => {
  // Only the landing's answer: later catalogue reloads (a match starting) find the promise resolved.
  if (landingArmed) return
  landingArmed = true
  const settledAt = performance.now()
  let observer: PerformanceObserver | undefined
  const open = () => {
    observer?.disconnect()
    openLandingPainted()
  }
  if (typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint")) {
    observer = new PerformanceObserver((entries) => {
      if (entries.getEntries().some((entry) => entry.startTime >= settledAt)) open()
    })
    observer.observe({ type: "largest-contentful-paint", buffered: true })
  }
  setTimeout(open, 1000)
}

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
