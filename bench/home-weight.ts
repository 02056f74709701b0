import { kb, launchChromium, notePreloaderGone, preloaderGoneAt, startServer, table } from "./support.ts"

interface Resource {
  readonly name: string
  readonly type: string
  readonly encoded: number
  readonly decoded: number
  readonly end: number
}

/**
 * Loads / in Chromium against the real server and sums the JavaScript and
 * CSS transferred (brotli or gzip, as sent) before the page is interactive: the moment the
 * preloader leaves and the app is ready. What loads after (the carousel,
 * lazy panels) is listed separately.
 */
export const homeWeight = async () => {
  const server = await startServer()
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    await notePreloaderGone(page)
    await page.goto(server.url, { waitUntil: "domcontentloaded" })
    const interactiveAt = await preloaderGoneAt(page)
    await page.waitForTimeout(4000)
    const resources = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => {
        const r = e as PerformanceResourceTiming
        return { name: new URL(r.name).pathname, type: r.initiatorType, encoded: r.encodedBodySize, decoded: r.decodedBodySize, end: r.responseEnd }
      })
    ) as Array<Resource>
    const nav = await page.evaluate(() => {
      const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming
      return { name: "/", encoded: n.encodedBodySize, decoded: n.decodedBodySize }
    })
    const code = resources.filter((r) => /\.(js|css)$/.test(r.name))
    const before = code.filter((r) => r.end <= interactiveAt)
    const after = code.filter((r) => r.end > interactiveAt)
    const sum = (list: ReadonlyArray<Resource>, ext: string) => list.filter((r) => r.name.endsWith(ext)).reduce((n, r) => n + r.encoded, 0)
    const js = sum(before, ".js")
    const css = sum(before, ".css")
    table([
      ["resource (before interactive)", "transferred", "raw"],
      ...before.map((r) => [r.name, kb(r.encoded), kb(r.decoded)]),
      ["index.html", kb(nav.encoded), kb(nav.decoded)]
    ])
    console.log("")
    table([
      ["home page, before interactive", "transferred"],
      ["JavaScript", kb(js)],
      ["CSS", kb(css)],
      ["total (JS + CSS)", kb(js + css)],
      ["interactive at", `${Math.round(interactiveAt)} ms`],
      ["JavaScript target", `≤ 120.0 KB (${js <= 120 * 1024 ? "met" : "not met"})`]
    ])
    if (after.length > 0) {
      console.log("\nloaded after the page was interactive (deferred):")
      for (const r of after) console.log(`  ${r.name}  ${kb(r.encoded)}`)
    }
  } finally {
    await browser.close()
    await server.stop()
  }
}
