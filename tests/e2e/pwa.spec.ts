import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { neverFromCache, UPDATE_CHECK_MS } from "../../src/domain/pwa.ts"
import { expect, type Page, test } from "./coverage.ts"
import { controlled, openPrices } from "./pwa-support.ts"
import { apiLogin, createPlayer, openSignedIn, waitForApp } from "./support.ts"

/**
 * The installable app in Chromium: the manifest and icons, the service worker
 * controlling the page, what CacheStorage holds after a whole visit, and an
 * update reaching an open tab. Only these specs let the worker in (the other
 * specs block it: playwright.config.ts); each test has a fresh browser
 * context, so a fresh worker.
 */
test.use({ serviceWorkers: "allow" })

/** Every URL in every cache of CacheStorage. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: Array<string> = []
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
    }
    return urls
  })

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`

test("the manifest has what Chromium needs to install the site, its icons load, and the worker controls the page after the first load", async ({ page }) => {
  await page.goto("/")
  await waitForApp(page)
  await controlled(page)
  const cdp = await page.context().newCDPSession(page)
  // Chromium's own verdict: nothing stands in the way of installing but the test's profile, which is incognito.
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors")
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(["in-incognito"])
  const { url, errors, data } = await cdp.send("Page.getAppManifest")
  expect(errors).toEqual([])
  expect(new URL(url).pathname).toBe("/manifest.webmanifest")
  const manifest = JSON.parse(data!) as {
    name: string; short_name: string; start_url: string; display: string; theme_color: string; background_color: string
    icons: Array<{ src: string; sizes: string; purpose: string }>
    screenshots: Array<{ src: string; sizes: string; form_factor: string }>
    shortcuts: Array<{ name: string; url: string }>
  }
  expect(manifest).toMatchObject({ short_name: "Khel", start_url: "/?source=app", display: "standalone", theme_color: "#f5b301" })
  expect(manifest.name).toContain("Khel")
  expect(manifest.shortcuts.map((s) => s.name)).toEqual(["In-Play", "My Bets", "Deposit"])
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"])
  // Every icon and screenshot loads, as a PNG of the size the manifest says.
  for (const image of [...manifest.icons, ...manifest.screenshots]) {
    const res = await page.request.get(image.src)
    expect(res.status(), image.src).toBe(200)
    expect(res.headers()["content-type"]).toBe("image/png")
    expect(pngSize(await res.body()), image.src).toBe(image.sizes)
  }
  expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(["narrow", "wide"])
  // Each shortcut opens a page of the site.
  for (const shortcut of manifest.shortcuts) {
    await page.goto(shortcut.url)
    await waitForApp(page)
    await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(0)
  }
})

test("after a whole visit CacheStorage holds the shell and nothing of the API, sign-in, sockets, uploads or games", async ({ page, request }) => {
  const player = await createPlayer(request, "Cache Player")
  const { path } = await openPrices(request)
  const admin = await apiLogin(request, "admin")
  expect((await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 1000 } })).status()).toBe(200)
  await openSignedIn(page, player.token, path)
  await controlled(page)
  // A bet, the money pages, a lobby's artwork and a game's launch: everything that could be cached has been asked for.
  await page.getByRole("button", { name: /^Back .* at / }).and(page.locator(":enabled")).first().click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  // Backed at the best price shown: matched at once (src/domain/matching.ts betOutcome).
  await expect(slip.getByRole("status")).toHaveText(/^Matched ₹[\d,]+\.00 at /)
  for (const next of ["/deposit", "/withdrawal", "/statements", "/live-casino"]) {
    await page.goto(next)
    await waitForApp(page)
  }
  await expect(page.locator("img[src^='/images/']").first()).toBeVisible()
  // The desk is never answered with the player's cached shell: under the worker, /admin still opens the desk.
  await page.goto("/admin")
  await expect(page.getByRole("form", { name: "Sign in to the desk" })).toBeVisible()
  const urls = await cachedUrls(page)
  const paths = urls.map((url) => new URL(url).pathname)
  // The shell: the page, its scripts and stylesheets, the icons.
  expect(paths).toContain("/index.html")
  expect(paths.filter((p) => p.startsWith("/assets/")).length).toBeGreaterThan(10)
  expect(paths).toContain("/icons/icon-192.png")
  // Nothing else, and nothing that is a player's money, account, prices or game.
  const kept = urls.filter((url) => neverFromCache(new URL(url).pathname))
  expect(kept).toEqual([])
  for (const path of paths) expect(path).toMatch(/^\/(index\.html|assets\/.+|icons\/.+\.png|favicon\.svg|loader\.svg)$/)
})

/**
 * Deploys a new build while `run` runs: another worker script (its compressed twins set aside, so the server sends
 * this one); the built one is back afterwards.
 */
const withNewBuild = async (run: () => Promise<void>) => {
  const sw = join("dist-test", "sw.js")
  const built = readFileSync(sw)
  const twins = [".br", ".gz"].map((suffix) => sw + suffix).filter((twin) => existsSync(twin))
  try {
    for (const twin of twins) renameSync(twin, `${twin}.aside`)
    writeFileSync(sw, Buffer.concat([built, Buffer.from(`\n// build ${Date.now()}\n`)]))
    await run()
  } finally {
    writeFileSync(sw, built)
    for (const twin of twins) if (existsSync(`${twin}.aside`)) renameSync(`${twin}.aside`, twin)
  }
}

test("a new build served to an open tab shows Reload; the typed stake stays until the player chooses", async ({ page, request }) => {
  const { path } = await openPrices(request)
  await openSignedIn(page, (await apiLogin(request, "demo")).token, path)
  await controlled(page)
  await page.getByRole("button", { name: /^Back .* at / }).and(page.locator(":enabled")).first().click()
  const stake = page.getByTestId("bet-slip").getByLabel("Stake (₹)")
  await stake.fill("250")

  await withNewBuild(async () => {
    // Coming back to the window is when the tab looks for a new build.
    await page.evaluate(() => window.dispatchEvent(new Event("focus")))
    const prompt = page.getByTestId("update-prompt")
    await expect(prompt).toContainText("A new version is ready", { timeout: 30_000 })
    // Nothing reloads by itself: the stake is still there, and still there a while later.
    await expect(stake).toHaveValue("250")
    await page.evaluate(() => window.dispatchEvent(new Event("focus")))
    await expect(stake).toHaveValue("250")
    await expect(prompt).toBeVisible()
    // The player chooses: the new build takes over, and the page reloads under it.
    const reloaded = page.waitForEvent("load")
    await prompt.getByRole("button", { name: "Reload" }).click()
    await reloaded
    await waitForApp(page)
    await expect(page.getByTestId("update-prompt")).toHaveCount(0)
    expect(await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration()
      return { waiting: registration?.waiting ?? null, controlled: navigator.serviceWorker.controller !== null }
    })).toEqual({ waiting: null, controlled: true })
  })
})

test("the hourly look finds a new build; Later puts the prompt off for an hour; a tab opened meanwhile shows it at once", async ({ page, request, context }) => {
  const player = await createPlayer(request, "Updating Player")
  await page.clock.install()
  await openSignedIn(page, player.token, "/")
  await controlled(page)
  await withNewBuild(async () => {
    const prompt = page.getByTestId("update-prompt")
    await expect(prompt).toHaveCount(0)
    await page.clock.runFor(UPDATE_CHECK_MS)
    await expect(prompt).toContainText("A new version is ready", { timeout: 30_000 })
    await prompt.getByRole("button", { name: "Later" }).click()
    await expect(prompt).toHaveCount(0)
    // Another tab, opened while the new build waits: the prompt at once.
    const other = await context.newPage()
    await other.goto("/")
    await waitForApp(other)
    await expect(other.getByTestId("update-prompt")).toContainText("A new version is ready", { timeout: 30_000 })
    // An hour later the put-off prompt is back.
    await page.clock.runFor(UPDATE_CHECK_MS)
    await expect(prompt).toContainText("A new version is ready")
  })
})


test("offline: the page gives way to the offline screen and nothing can be sent; a reload shows it too; back online, prices move again", async ({ page, request, context }) => {
  const { path, price } = await openPrices(request)
  await openSignedIn(page, (await apiLogin(request, "demo")).token, path)
  await controlled(page)
  const bets: Array<string> = []
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/v1\/(bet-sport|fancy-bet-sport|bet-racing)$/.test(new URL(r.url()).pathname)) bets.push(r.url())
  })
  await page.getByRole("button", { name: /^Back .* at / }).and(page.locator(":enabled")).first().click()
  const slip = page.getByTestId("bet-slip")
  const stake = slip.getByLabel("Stake (₹)")
  await stake.fill("150")
  const offlineScreen = page.getByTestId("offline-screen")

  // The network goes: the screen says so, the prices and the balance go, the slip cannot be sent.
  await context.setOffline(true)
  await expect(offlineScreen).toHaveText(/You are offline — prices and your balance will return when you reconnect/)
  await expect(slip).toBeHidden()
  await expect(slip.getByRole("button", { name: "Place Bet", includeHidden: true })).toBeDisabled()
  await expect(page.getByTestId("balance-block")).toHaveCount(0)
  await expect(page.getByTestId("offline-badge")).toBeVisible()

  // It comes back: the page as it was (the typed stake with it), and the prices live again.
  await context.setOffline(false)
  await expect(offlineScreen).toHaveCount(0)
  await expect(stake).toHaveValue("150")
  await expect(slip.getByRole("button", { name: "Place Bet" })).toBeEnabled()
  await price(2.3)
  await expect(page.getByRole("button", { name: "Back Delhi Capitals at 2.30" }).first()).toBeVisible()

  // A reload without a network: the worker's shell and the offline screen, not the browser's error page.
  await context.setOffline(true)
  await page.reload()
  await expect(offlineScreen).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId("preloader")).toBeHidden()
  await expect(slip).toHaveCount(0)
  await expect(page.getByRole("button", { name: /^Back .* at / })).toHaveCount(0)

  // Back online, the site loads itself again and its prices move.
  const reloaded = page.waitForEvent("load")
  await context.setOffline(false)
  await reloaded
  await waitForApp(page)
  await expect(offlineScreen).toHaveCount(0)
  await price(2.36)
  await expect(page.getByRole("button", { name: "Back Delhi Capitals at 2.36" }).first()).toBeVisible()
  expect(bets).toEqual([])
})
