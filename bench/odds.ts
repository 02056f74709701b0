/**
 * The event page under a storm of prices: the real server's simulator sends
 * 1,000 price updates a second for the watched event, Chromium runs with the
 * CPU slowed 4x (CDP Emulation.setCPUThrottlingRate), and for 10 s we count
 * long tasks (> 50 ms), dropped frames and the price changes the page showed.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { demoToken, launchChromium, startServer, table } from "./support.ts"

const UPDATES_PER_SECOND = Number(process.env.BENCH_ODDS_RATE ?? 1000)
const SECONDS = 10

export const oddsBench = async () => {
  const server = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), "khel-bench-odds-")), ODDS_UPDATES_PER_SECOND: String(UPDATES_PER_SECOND) })
  const browser = await launchChromium()
  try {
    const token = await demoToken(server.url)
    const sports = (await (await fetch(`${server.url}/api/v1/get-sports-data`)).json()).data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<{ slugName: string; inPlay: boolean; markets: Array<unknown> }> }> }>
    const cricket = sports.find((s) => s.slugName === "cricket")!
    const league = cricket.leagues.find((l) => l.events.some((e) => e.inPlay))!
    const event = league.events.find((e) => e.inPlay)!

    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    await page.addInitScript((token) => localStorage.setItem("token", token), token)
    await page.goto(`${server.url}/event?sport=cricket&league=${league.slugName}&event=${event.slugName}`)
    await page.getByTestId("preloader").waitFor({ state: "hidden", timeout: 30_000 })
    await page.locator("[data-testid^='odds-']").first().waitFor()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
    // Let the throttled page settle before measuring.
    await page.waitForTimeout(1000)

    const result = await page.evaluate(async (seconds) => {
      const longTasks: Array<number> = []
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration)
      })
      observer.observe({ type: "longtask" })
      let changes = 0
      const cells = document.querySelector("main")!
      const mutations = new MutationObserver((records) => {
        changes += records.length
      })
      mutations.observe(cells, { subtree: true, characterData: true, childList: true })
      const frameMs = 1000 / 60
      let frames = 0
      let dropped = 0
      let last = performance.now()
      const end = last + seconds * 1000
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          frames++
          const missed = Math.round((now - last) / frameMs) - 1
          if (missed > 0) dropped += missed
          last = now
          if (now < end) requestAnimationFrame(tick)
          else resolve()
        }
        requestAnimationFrame(tick)
      })
      observer.disconnect()
      mutations.disconnect()
      return { longTasks, frames, dropped, changes }
    }, SECONDS)

    const over50 = result.longTasks.filter((d) => d > 50)
    table([
      ["updates sent/s", "CPU slowdown", "seconds", "frames", "frames dropped", "long tasks > 50 ms", "longest task ms", "price changes shown"],
      [UPDATES_PER_SECOND, "4x", SECONDS, result.frames, result.dropped, over50.length, result.longTasks.length ? Math.max(...result.longTasks).toFixed(0) : "0", result.changes]
    ])
    console.log(`\nevent: ${event.slugName} (${event.markets.length} markets); target: no long task over 50 ms`)
  } finally {
    await browser.close()
    await server.stop()
  }
}
