import { chromium } from "@playwright/test"
import { readFileSync } from "node:fs"
import { SourceMapConsumer } from "source-map-js"
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" })
const page = await browser.newPage({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 })
const cdp = await page.context().newCDPSession(page)
await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
await cdp.send("Profiler.enable")
await cdp.send("Profiler.setSamplingInterval", { interval: 200 })
await cdp.send("Profiler.start")
await page.goto("http://127.0.0.1:4700" + (process.argv[2] ?? "/"))
await page.waitForTimeout(9000)
const { profile } = await cdp.send("Profiler.stop")
const dt = new Map()
for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0))
const maps = new Map()
const mapOf = (url) => {
  if (!maps.has(url)) { try { maps.set(url, new SourceMapConsumer(JSON.parse(readFileSync("dist" + new URL(url).pathname + ".map", "utf8")))) } catch { maps.set(url, null) } }
  return maps.get(url)
}
const self = new Map()
const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
// inclusive per source file too
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const incl = new Map()
for (const n of profile.nodes) {
  const t = (dt.get(n.id) ?? 0) / 1000
  if (!t) continue
  const cf = n.callFrame
  let name = cf.functionName || "(anon)"
  const m = cf.url && mapOf(cf.url)
  if (m) { const p = m.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber }); name = `${p.name ?? name} ${p.source?.replace(/.*node_modules\//, "nm/").replace(/.*\/src\//, "src/")}:${p.line}` }
  else if (cf.url) name += " " + cf.url.split("/").pop()
  self.set(name, (self.get(name) ?? 0) + t)
  // attribute to each distinct source file up the stack
  const seen = new Set(); let id = n.id
  while (id !== undefined) { const f = byNode.get(id).callFrame; let src = f.url; const mm = f.url && mapOf(f.url); if (mm) { const p = mm.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber }); src = p.source?.replace(/.*node_modules\//, "nm/").replace(/.*\/src\//, "src/") ?? src } if (src && !seen.has(src)) { seen.add(src); incl.set(src, (incl.get(src) ?? 0) + t) } id = parent.get(id) }
}
console.log("SELF"); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(v.toFixed(1).padStart(8), k)
console.log("INCLUSIVE by source (src only)"); for (const [k, v] of [...incl].filter(([k]) => k.startsWith("src/")).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(v.toFixed(1).padStart(8), k)
await browser.close()
