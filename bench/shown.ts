import { inPlayEventPath } from "./lighthouse.ts"
import { demoToken, kb, launchChromium, median, notePreloaderGone, preloaderGoneAt, startServer, table } from "./support.ts"

const RUNS = Number(process.env.BENCH_SHOWN_RUNS ?? 5)

/** Lighthouse's simulated slow 4G (150 ms, 1.6 Mbit/s down, 750 kbit/s up) and its 4x CPU slowdown, applied for real. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 }

interface Load {
  /** When the preloader left: what the player first sees of the page. */
  readonly shown: number
  /** The browser's largest paint (it counts paints under the preloader). */
  readonly lcp: number
  /** Bytes as transferred (bodies, compressed as sent) until the page was shown. */
  readonly bytes: number
}

/**
 * What a visitor on a phone over slow 4G waits for on each main page: Chromium with the network and the CPU
 * throttled as Lighthouse's model assumes, a cold cache each load, and the moment the spec's preloader leaves (it
 * covers the page until the startup calls are done, and a second more). Lighthouse's LCP counts a page's paint under
 * the preloader; this is when the page can be seen. No target: it shows what the bytes on the startup path cost.
 */
export const shownBench = async () => {
  const server = await startServer()
  const browser = await launchChromium()
  try {
    const event = await inPlayEventPath(server.url)
    const token = await demoToken(server.url)
    // A visitor on each page, and a signed-in player (most who bet are) on the home and event pages.
    const pages: ReadonlyArray<readonly [string, string, string | undefined]> = [
      ["/", "/", undefined], ["/sports", "/sports", undefined], ["/event", event, undefined], ["/live-casino", "/live-casino", undefined],
      ["/ signed in", "/", token], ["/event signed in", event, token]
    ]
    const rows: Array<Array<string | number>> = [["page (median)", "shown (preloader gone)", "runs", "LCP", "bytes before shown"]]
    for (const [label, path, signedIn] of pages) {
      const loads: Array<Load> = []
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true })
        const page = await context.newPage()
        if (signedIn) await page.addInitScript((token) => localStorage.setItem("token", token), signedIn)
        await notePreloaderGone(page)
        // Largest-paint candidates are only handed to observers, not kept in the page's timeline.
        await page.addInitScript(() => {
          const candidates: Array<number> = []
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) candidates.push(entry.startTime)
          }).observe({ type: "largest-contentful-paint", buffered: true })
          Object.assign(window, { lcpCandidates: candidates })
        })
        const cdp = await context.newCDPSession(page)
        await cdp.send("Network.enable")
        await cdp.send("Network.emulateNetworkConditions", SLOW_4G)
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
        await page.goto(`${server.url}${path}`, { waitUntil: "commit" })
        const shownAt = await preloaderGoneAt(page, 60_000)
        loads.push(await page.evaluate((shownAt) => {
          // The last largest-paint candidate before the page was shown.
          const lcp = (window as unknown as { lcpCandidates: Array<number> }).lcpCandidates.filter((at) => at <= shownAt).at(-1) ?? 0
          const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming
          const resources = performance.getEntriesByType("resource") as Array<PerformanceResourceTiming>
          const bytes = resources.filter((r) => r.responseEnd <= shownAt).reduce((n, r) => n + r.encodedBodySize, navigation.encodedBodySize)
          return { shown: shownAt, lcp, bytes }
        }, shownAt))
        await context.close()
      }
      rows.push([
        label,
        `${(median(loads.map((l) => l.shown)) / 1000).toFixed(2)} s`,
        loads.map((l) => (l.shown / 1000).toFixed(2)).join(", "),
        `${(median(loads.map((l) => l.lcp)) / 1000).toFixed(2)} s`,
        kb(median(loads.map((l) => l.bytes)))
      ])
    }
    table(rows)
    console.log("\n(phone viewport, slow 4G and CPU 4x applied in Chromium, cold cache; the preloader closes a second after the startup calls, SPEC section 4)")
  } finally {
    await browser.close()
    await server.stop()
  }
}
