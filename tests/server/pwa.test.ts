import { createHash } from "node:crypto"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { ICONS, SCREENSHOTS } from "../../src/domain/pwa.ts"
import { Settings } from "../../server/settings/Settings.ts"
import { SPLASH_BACKGROUND } from "../../server/settings/manifest.ts"
import { fakeDist, loginAs, useServer } from "./helpers.ts"

/** The installable app's server side: the manifest from the site settings, and what may be cached where. */
let dist: string

const STYLE = "body{background:#0f1115}"

beforeAll(async () => {
  dist = fakeDist()
  writeFileSync(join(dist, "index.html"), `<!doctype html><title>Khel</title><style>${STYLE}</style><div id=root></div>`)
  writeFileSync(join(dist, "sw.js"), "self.addEventListener('fetch', () => {})")
})
const server = useServer({ config: () => ({ distDir: dist }) })

const manifest = async () => {
  const res = await fetch(`${server.url}/manifest.webmanifest`)
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toBe("application/manifest+json")
  expect(res.headers.get("cache-control")).toBe("no-cache")
  return (await res.json()) as Record<string, any>
}

describe("the web manifest", () => {
  it("has what Chromium needs to install the site, from the site settings", async () => {
    const site = await server.run(Settings.use((settings) => settings.site))
    const m = await manifest()
    expect(m).toMatchObject({
      id: "/",
      name: site.siteTitle,
      short_name: "Khel",
      start_url: "/?source=app",
      scope: "/",
      display: "standalone",
      theme_color: site.color,
      background_color: SPLASH_BACKGROUND
    })
    expect(m.icons).toEqual([
      { src: ICONS.any192, sizes: "192x192", type: "image/png", purpose: "any" },
      { src: ICONS.any512, sizes: "512x512", type: "image/png", purpose: "any" },
      { src: ICONS.maskable512, sizes: "512x512", type: "image/png", purpose: "maskable" }
    ])
    // The richer install sheet: a phone's screenshot and a laptop's.
    expect(m.screenshots.map((s: { form_factor: string; sizes: string }) => [s.form_factor, s.sizes])).toEqual(
      SCREENSHOTS.map((s) => [s.formFactor, `${s.width}x${s.height}`])
    )
    expect(m.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ["In-Play", "/inplay?source=app"],
      ["My Bets", "/?show=my-bets&source=app"],
      ["Deposit", "/deposit?source=app"]
    ])
  })

  it("follows the operator's title and brand colour at once", async () => {
    const before = await server.run(Settings.use((settings) => settings.site))
    try {
      await server.run(Settings.use((settings) => settings.put("site", { ...before, siteTitle: "Acme Bets | Cricket", color: "#1e88e5" })))
      const m = await manifest()
      expect(m.name).toBe("Acme Bets | Cricket")
      expect(m.short_name).toBe("Acme Bets")
      expect(m.theme_color).toBe("#1e88e5")
      // A colour that is not one keeps the site's default instead of breaking the install.
      await server.run(Settings.use((settings) => settings.put("site", { ...before, color: "red; background: url(x)" })))
      expect((await manifest()).theme_color).toBe("#f5b301")
    } finally {
      await server.run(Settings.use((settings) => settings.put("site", before)))
    }
  })
})

describe("what may be cached", () => {
  it("revalidates the service worker's script on every use, so an open tab learns of a new build", async () => {
    const res = await fetch(`${server.url}/sw.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get("cache-control")).toBe("no-cache")
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/)
    // Assets keep their year; other files their hour.
    expect((await fetch(`${server.url}/assets/app-abc123.js`)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
  })

  it("answers /index.html as the page (the copy the worker keeps), with the policy that allows its stylesheet", async () => {
    const hash = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`
    for (const path of ["/index.html", "/event"]) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-cache")
      expect(res.headers.get("content-security-policy")).toContain(`style-src 'self' ${hash}`)
    }
  })

  it("keeps every answer about a player's money or account out of every cache (no-store)", async () => {
    const { token } = await loginAs(server, "demo")
    const openapi = await (await fetch(`${server.url}/api/v1/openapi.json`)).json() as { paths: Record<string, Record<string, unknown>> }
    // The answers that are the same for every visitor (edge/caching.ts) are revalidated, never stored privately.
    const shared = new Set(["/api/v1/get-sports-data", "/api/v1/app-settings", "/api/v1/get-all-app-settings", "/api/v1/advertisement"])
    const reads = Object.keys(openapi.paths).filter((path) => openapi.paths[path]!.get !== undefined && !shared.has(path))
    expect(reads.length).toBeGreaterThan(20)
    for (const path of reads) {
      const res = await fetch(`${server.url}${path.replace(/\{[^}]+\}/g, "x")}`, { headers: { authorization: `Bearer ${token}` } })
      expect(res.headers.get("cache-control"), path).toBe("no-store")
      await res.arrayBuffer()
    }
  })

})
