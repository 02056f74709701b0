import { chromium } from "@playwright/test"
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" })
const run = async (base, path) => {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, serviceWorkers: "block" })
  const page = await context.newPage()
  await page.addInitScript(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([e.startTime, e.duration]) }).observe({ type: "longtask", buffered: true }) })
  const cdp = await context.newCDPSession(page)
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
  await page.goto(base + path)
  await page.waitForTimeout(8000)
  const lt = await page.evaluate(() => window.__lt)
  await context.close()
  return { tbt: Math.round(lt.reduce((s, [, d]) => s + Math.max(0, d - 50), 0)), n: lt.length }
}
const path = process.argv[2] ?? "/"
for (let i = 0; i < Number(process.argv[3] ?? 3); i++) for (const [name, base] of [["old", "http://127.0.0.1:4710"], ["new", "http://127.0.0.1:4700"]]) console.log(name, path, JSON.stringify(await run(base, path)))
await browser.close()
