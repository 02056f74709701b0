import { chromium } from "@playwright/test"
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" })
const page = await browser.newPage({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 })
await page.addInitScript(() => {
  window.__loaf = []
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__loaf.push({ t: Math.round(e.startTime), d: Math.round(e.duration), block: Math.round(e.blockingDuration), render: Math.round(e.renderStart ? e.startTime + e.duration - e.renderStart : 0), scripts: e.scripts.map((s) => `${Math.round(s.duration)}ms ${s.invokerType} ${s.invoker} ${s.sourceURL.split("/").pop()}:${s.sourceFunctionName} fwd=${Math.round(s.forcedStyleAndLayoutDuration)}`) }) }).observe({ type: "long-animation-frame", buffered: true })
})
const cdp = await page.context().newCDPSession(page)
await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
await page.goto("http://127.0.0.1:4700" + (process.argv[2] ?? "/"))
await page.waitForTimeout(10000)
for (const l of await page.evaluate(() => window.__loaf)) if (l.d > 50) console.log(JSON.stringify(l))
await browser.close()
