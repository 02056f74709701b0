import { launchChromium, startServer } from "./support.ts"
const server = await startServer()
const browser = await launchChromium()
const page = await browser.newPage({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 })
await page.addInitScript(() => {
  const shifts: Array<string> = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> }>) {
      shifts.push(`${Math.round(e.startTime)} ${e.value.toFixed(3)} ${e.sources.map((s) => `${s.node instanceof Element ? s.node.tagName + "." + s.node.className.toString().slice(0, 60) + "[" + (s.node.getAttribute("data-testid") ?? s.node.getAttribute("aria-label") ?? "") + "]" : s.node?.nodeName} ${JSON.stringify([s.previousRect.y, s.previousRect.height, s.currentRect.y, s.currentRect.height])}`).join(" | ")}`)
    }
  }).observe({ type: "layout-shift", buffered: true })
  Object.assign(window, { shifts })
})
await page.goto(process.env.P ? server.url + process.env.P : server.url)
await page.getByTestId("preloader").waitFor({ state: "hidden", timeout: 60000 })
await page.waitForTimeout(6000)
console.log((await page.evaluate(() => (window as unknown as { shifts: Array<string> }).shifts)).join("\n"))
await browser.close(); await server.stop()
