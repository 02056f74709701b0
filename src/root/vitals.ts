import type { Metric } from "web-vitals"
import type { DeviceClass, Vital, VitalsPayload } from "../schema/vitals.ts"

/**
 * Real-user vitals: LCP, INP, CLS and TTFB of this page load (web-vitals),
 * sent in one small beacon when the page is hidden or left
 * (`navigator.sendBeacon`: never blocks, survives the page closing). Loaded
 * after the first paint, so it costs the first page nothing. The server keeps
 * the 75th percentile per route and device class (`npm run admin -- vitals`).
 */
const ENDPOINT = "/api/v1/vitals"

/** The performance mark set once the vitals are being observed. */
export const VITALS_READY = "khel:vitals-ready"

/** The landing page's route pattern: its first path segment, never ids, queries or names. */
export const routeOf = (pathname: string) => `/${(pathname.split("/")[1] ?? "").toLowerCase().replace(/[^a-z0-9&-]/g, "").slice(0, 40)}`

/** The device class by viewport width, as the site lays itself out. */
export const deviceOf = (width: number): DeviceClass => (width < 768 ? "mobile" : width < 1024 ? "tablet" : "desktop")

const connectionOf = (): VitalsPayload["connection"] => {
  const type = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection?.effectiveType
  return type === "slow-2g" || type === "2g" || type === "3g" || type === "4g" ? type : undefined
}

export const reportVitals = async () => {
  if (typeof navigator.sendBeacon !== "function") return
  const { onCLS, onINP, onLCP, onTTFB } = await import("web-vitals")
  const route = routeOf(location.pathname)
  const device = deviceOf(window.innerWidth)
  // The latest value of each vital not sent yet: one report holds each at most once.
  const pending = new Map<Metric["name"], Vital>()
  const add = (metric: Metric) => {
    if (metric.name === "FCP") return
    pending.set(metric.name, { name: metric.name, value: Math.min(60_000, Math.max(0, metric.value)), rating: metric.rating })
  }
  const flush = () => {
    if (pending.size === 0) return
    const connection = connectionOf()
    const payload: VitalsPayload = { route, device, ...(connection ? { connection } : {}), vitals: [...pending.values()] }
    pending.clear()
    navigator.sendBeacon(ENDPOINT, new Blob([JSON.stringify(payload)], { type: "application/json" }))
  }
  onLCP(add)
  onINP(add)
  onCLS(add)
  onTTFB(add)
  // web-vitals hands over its final values on the same event; the beacon goes once they are in.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") queueMicrotask(flush)
  })
  addEventListener("pagehide", () => queueMicrotask(flush))
  // Visible in the browser's performance timeline: when the reporting started, after the first paint.
  performance.mark(VITALS_READY)
}
