import { expect, type Page, test } from "./coverage.ts"
import { apiLogin, catalogueEvent } from "./support.ts"

test("the preloader reaches 100 % and closes on the home page with demo data", async ({ page }) => {
  const percents: Array<number> = []
  await page.exposeFunction("recordPercent", (value: number) => void percents.push(value))
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const el = document.querySelector("[data-testid=preloader-percent]")
      if (el) (window as unknown as { recordPercent: (n: number) => void }).recordPercent(Number.parseInt(el.textContent ?? "0", 10))
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  expect(percents).toContain(100)
  expect(percents.every((p, i) => i === 0 || p >= percents[i - 1]!)).toBe(true)
  await expect(page).toHaveTitle(/Khel/)
  await expect(page.getByRole("heading", { name: "In-Play" })).toBeVisible()
  await expect(page.getByTestId("banner-slider").getByRole("img").first()).toBeVisible()
  await expect(page.getByRole("complementary", { name: "Sports" }).getByRole("button", { name: /Cricket/ })).toBeVisible()
})

test("an event's title and markets, and a lobby's cards, show once their code and data are in, with the page's clock stopped", async ({ page, request }) => {
  // React shows a suspended page no sooner than 300 ms after its loading line appeared, by a timer: with the
  // page's clock stopped, a page that suspended for its chunk or its odds books would never show. Pages and the
  // odds books are waited for without suspending (src/views/loadable.ts), so nothing here needs the clock to move.
  const { event, path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  const now = Date.now()
  await page.clock.install({ time: now })
  await page.clock.pauseAt(now + 1000)
  await page.goto(path)
  await expect(page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
  await expect(page.getByTestId(/^odds-/).first()).toBeVisible()
  await page.goto("/live-casino")
  await expect(page.getByRole("heading", { level: 1, name: "Live Casino" })).toBeVisible()
  await expect(page.getByTestId("game-card").first()).toBeVisible()
})

test("the scripts an event page and a lobby need first go with their HTML, each fetched once", async ({ page, request }) => {
  // The build names them by path (vite.config.ts `firstChunks`); the server sends them as modulepreload links, so
  // they download beside the first chunk instead of once it has run. Fetched twice would mean the page's own
  // import did not take the preloaded module.
  const { event, path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  const fetched: Array<string> = []
  page.on("request", (outgoing) => void fetched.push(new URL(outgoing.url()).pathname))
  for (const [url, chunk, heading] of [[path, /\/event-[\w-]+\.js$/, event.name], ["/live-casino", /\/lobby-[\w-]+\.js$/, "Live Casino"]] as const) {
    fetched.length = 0
    const response = await page.goto(url)
    const preloaded = [...((await response!.headerValue("link")) ?? "").matchAll(/<([^>]+)>; rel=modulepreload/g)].map((match) => match[1]!)
    expect(preloaded.some((href) => chunk.test(href)), url).toBe(true)
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible()
    for (const href of preloaded) expect(fetched.filter((name) => name === href), href).toHaveLength(1)
  }
})

test("an event page paints from the catalogue before it asks for the banners or its live flows' code", async ({ page, request }) => {
  // Off the home page the banners (about 45 KB) and the flows the page does not name first (src/views/firstPages.ts)
  // wait until the page has painted (src/root/idle.ts `landingPainted`): on slow 4G they would take its bandwidth.
  const { event, path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  await page.addInitScript(() => {
    const paints: Array<number> = []
    Object.assign(window, { pagePaints: paints })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>) {
        if (entry.element?.closest("main")) paints.push(entry.startTime)
      }
    }).observe({ type: "largest-contentful-paint", buffered: true })
  })
  await page.goto(path)
  await expect(page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
  const startOf = (pattern: string) =>
    page.waitForFunction((source) => performance.getEntriesByType("resource").find((entry) => new RegExp(source).test(new URL(entry.name).pathname))?.startTime, pattern)
      .then((handle) => handle.jsonValue())
  const banners = await startOf("^/api/v1/advertisement$")
  const liveFlow = await startOf("/liveEvent-[\\w-]+\\.js$")
  const firstPaint = await page.evaluate(() => (window as unknown as { pagePaints: Array<number> }).pagePaints[0])
  expect(firstPaint).toBeDefined()
  expect(banners).toBeGreaterThan(firstPaint!)
  expect(liveFlow).toBeGreaterThan(firstPaint!)
  // And the flows do come: the score and the slip work as before.
  await expect(page.getByTestId("fairness")).toBeVisible()
})

test("the header switches sections and highlights the right segment", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  const sections = page.getByRole("navigation", { name: "Sections" }).first()
  await sections.getByRole("link", { name: "Sports" }).click()
  await expect(page).toHaveURL(/\/sports$/)
  await expect(sections.getByRole("link", { name: "Sports" })).toHaveAttribute("aria-current", "page")
  await page.goto("/inplay")
  await expect(sections.getByRole("link", { name: "Sports" })).toHaveAttribute("aria-current", "page")
  await page.goto("/sa-casino")
  await expect(sections.getByRole("link", { name: "SA Gaming" })).toHaveAttribute("aria-current", "page")
})

test("the sidebar searches sports, leagues and events ignoring spaces and case", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  const sidebar = page.getByRole("complementary", { name: "Sports" })
  await sidebar.getByRole("searchbox").fill("mumbaiIndians")
  await expect(sidebar.getByRole("link", { name: /Mumbai Indians v Chennai Super Kings/ })).toBeVisible()
  await sidebar.getByRole("searchbox").fill("zzzz no such team")
  await expect(sidebar.getByText("No results")).toBeVisible()
  await sidebar.getByRole("searchbox").fill("")
  await expect(sidebar.getByRole("button", { name: /Horse Racing/ })).toHaveCount(0)
})

test("the Register button pulses until it is hovered", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  const register = page.getByRole("banner").getByRole("button", { name: "Register" })
  await expect(register).toHaveAttribute("data-pulsing", "true")
  await register.hover()
  await expect(register).toHaveAttribute("data-pulsing", "false")
})

test("the theme toggles and is remembered", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark")
  await page.getByRole("button", { name: "Switch to light theme" }).click()
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light")
  await page.reload()
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light")
})

const ROUTES = [
  ["/", "In-Play"],
  ["/sports", "Cricket"],
  ["/inplay", "In-Play"],
  ["/event?sport=cricket&league=indian-premier-league&event=mumbai-indians-v-chennai-super-kings", "Mumbai Indians v Chennai Super Kings"],
  ["/racing", "Horse Racing"],
  ["/live-casino", "Live Casino"],
  ["/sa-casino", "SA Gaming"],
  ["/slots", "Slots"],
  ["/deposit", "Deposit"],
  ["/withdrawal", "Withdrawal"],
  ["/bonus", "Bonus"],
  ["/referral-bonus", "Referral Bonus"],
  ["/statements", "Account Statements"],
  ["/profit-loss", "Profit and Loss"],
  ["/terms-&-conditions", "Terms & Conditions"],
  ["/privacy-policy", "Privacy Policy"],
  ["/responsible-gambling", "Responsible Gambling"],
  ["/about", "About Us"],
  ["/no-such-page", "Page not found"]
] as const

for (const [path, heading] of ROUTES) {
  test(`route ${path} shows its page`, async ({ page }) => {
    const errors: Array<string> = []
    page.on("pageerror", (error) => errors.push(error.message))
    await page.goto(path)
    await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
    await expect(page.getByRole("heading", { name: heading, exact: true }).first()).toBeVisible()
    await expect(page.getByRole("contentinfo")).toBeVisible()
    expect(errors).toEqual([])
  })
}

/**
 * How many times the page fetched each API path by the time the preloader reached 100 % (a preload the app's own
 * fetch takes is one fetch). The pipeline's calls are all answered by then, and nothing else fetches them before
 * the site is ready (a catalogue change refetches the sports only once it is).
 */
const startupFetches = async (page: Page, path: string) => {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector("[data-testid=preloader-percent]")?.textContent !== "100%") return
      observer.disconnect()
      const counts: Record<string, number> = {}
      for (const entry of performance.getEntriesByType("resource")) {
        const url = new URL(entry.name)
        if (url.pathname.startsWith("/api/") && url.search === "") counts[url.pathname] = (counts[url.pathname] ?? 0) + 1
      }
      ;(window as unknown as { startupFetches: Record<string, number> }).startupFetches = counts
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto(path)
  const counts = await page.waitForFunction(() => (window as unknown as { startupFetches?: Record<string, number> }).startupFetches, undefined, { timeout: 20_000 })
  return (await counts.jsonValue()) as Record<string, number>
}

const SETTINGS = { "/api/v1/app-settings": 1, "/api/v1/get-all-app-settings": 1 }

test("every startup call goes out once: a visitor's preloads and a signed-in player's early calls are taken", async ({ page, browser, request }) => {
  expect(await startupFetches(page, "/")).toEqual({ "/api/v1/get-sports-data": 1, "/api/v1/advertisement": 1, ...SETTINGS })
  // The live casino also preloads its games; the game list is fetched once, with the preload.
  const lobby = await startupFetches(page, "/live-casino")
  expect(lobby).toMatchObject({ "/api/v1/get-sports-data": 1, "/api/v1/advertisement": 1, ...SETTINGS })
  expect(lobby["/api/v1/casino-games"] ?? 1).toBe(1)
  await expect(page.getByRole("main").getByRole("button", { name: /^Play / }).first()).toBeVisible()
  expect(await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/api/v1/casino-games").length)).toBe(1)

  const context = await browser.newContext()
  const player = await context.newPage()
  const { token } = await apiLogin(request, "demo")
  await player.addInitScript((t) => localStorage.setItem("token", t), token)
  // The head script asks for every step at once with the player's token (src/root/headScript.ts); the pipeline
  // takes those answers instead of asking again.
  const SIGNED_IN = { "/api/v1/get-sports-data-authenticate": 1, "/api/v1/advertisement": 1, "/api/v1/getUserData": 1, ...SETTINGS }
  // Left untaken, an early answer would show as a key here.
  const untaken = () => player.evaluate(() => Object.keys((window as unknown as { khelEarlyAnswers?: { answers: object } }).khelEarlyAnswers?.answers ?? { none: true }))
  expect(await startupFetches(player, "/")).toEqual(SIGNED_IN)
  await expect(player.getByTestId("balance-block")).toBeVisible()
  expect(await untaken()).toEqual([])
  expect(await startupFetches(player, "/live-casino")).toMatchObject(SIGNED_IN)
  await expect(player.getByRole("main").getByRole("button", { name: /^Play / }).first()).toBeVisible()
  expect(await player.evaluate(() => performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname === "/api/v1/casino-games").length)).toBe(1)
  expect(await untaken()).toEqual([])
})
