import * as chromeLauncher from "chrome-launcher"
import lighthouse from "lighthouse"
import { kb, launchChromium, startServer, table } from "./support.ts"

interface Resource {
  readonly name: string
  readonly encoded: number
  readonly end: number
}

const kind = (name: string) => (/\.js$/.test(name) ? "js" : /\.css$/.test(name) ? "css" : /\.(png|webp|jpe?g|svg)$/.test(name) ? "image" : "other")

/**
 * /live-casino in Chromium against the real server: what is transferred
 * (as sent, gzip where the server compresses) before the first game card's
 * artwork is on screen, on a desktop and on a phone-sized window, and how
 * much artwork waits below the fold until the player scrolls.
 */
export const lobbyWeight = async () => {
  const server = await startServer()
  const browser = await launchChromium()
  try {
    const rows: Array<Array<string | number>> = [["viewport", "JS", "CSS", "images", "requests", "first card at", "images deferred"]]
    for (const [label, viewport] of [["desktop 1366x900", { width: 1366, height: 900 }], ["phone 390x844", { width: 390, height: 844 }]] as const) {
      const page = await browser.newPage({ viewport })
      // The moment the first card's picture has loaded and is inside the window.
      await page.addInitScript(() => {
        const check = () => {
          const img = document.querySelector<HTMLImageElement>("[data-testid=game-card] img")
          if (img && img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().top < innerHeight) {
            Object.assign(window, { firstCardAt: performance.now() })
            return
          }
          requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      })
      await page.goto(`${server.url}/live-casino`, { waitUntil: "domcontentloaded" })
      await page.waitForFunction(() => "firstCardAt" in window, undefined, { timeout: 30_000 })
      const firstCardAt = await page.evaluate(() => (window as unknown as { firstCardAt: number }).firstCardAt)
      await page.waitForTimeout(3000)
      const resources = await page.evaluate(() =>
        performance.getEntriesByType("resource").map((e) => {
          const r = e as PerformanceResourceTiming
          return { name: new URL(r.name).pathname, encoded: r.encodedBodySize, end: r.responseEnd }
        })
      ) as Array<Resource>
      const cards = await page.locator("[data-testid=game-card]").count()
      const before = resources.filter((r) => r.end <= firstCardAt)
      const sum = (k: string, list: ReadonlyArray<Resource>) => list.filter((r) => kind(r.name) === k).reduce((n, r) => n + r.encoded, 0)
      const imagesLoaded = resources.filter((r) => kind(r.name) === "image" && r.name.startsWith("/images/")).length
      rows.push([
        label,
        kb(sum("js", before)),
        kb(sum("css", before)),
        `${kb(sum("image", before))} (${before.filter((r) => kind(r.name) === "image").length})`,
        before.length + 1,
        `${Math.round(firstCardAt)} ms`,
        `${cards - imagesLoaded} of ${cards}`
      ])
      await page.close()
    }
    table(rows)
    console.log("\n(images deferred: game artwork not requested 3 s after load, without scrolling: lazy-loaded below the fold)")
  } finally {
    await browser.close()
    await server.stop()
  }
}

/** Lighthouse 13 (mobile preset: emulated phone, simulated slow 4G and CPU) on /live-casino, three runs, median. */
export const lobbyLighthouse = async () => {
  const server = await startServer()
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
  })
  try {
    const runs: Array<{ score: number; fcp: number; lcp: number; tbt: number; cls: number; si: number }> = []
    for (let i = 0; i < 3; i++) {
      const result = await lighthouse(`${server.url}/live-casino`, { port: chrome.port, onlyCategories: ["performance"], output: "json", logLevel: "error" })
      const lhr = result!.lhr
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
      runs.push({
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcp: metric("first-contentful-paint"),
        lcp: metric("largest-contentful-paint"),
        tbt: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
        si: metric("speed-index")
      })
    }
    runs.sort((a, b) => a.score - b.score)
    const median = runs[1]!
    table([
      ["/live-casino, Lighthouse mobile", "median of 3"],
      ["performance score", `${median.score} (runs: ${runs.map((r) => r.score).join(", ")})`],
      ["first contentful paint", `${(median.fcp / 1000).toFixed(1)} s`],
      ["largest contentful paint", `${(median.lcp / 1000).toFixed(1)} s`],
      ["total blocking time", `${Math.round(median.tbt)} ms`],
      ["cumulative layout shift", median.cls.toFixed(3)],
      ["speed index", `${(median.si / 1000).toFixed(1)} s`]
    ])
  } finally {
    chrome.kill()
    await server.stop()
  }
}
