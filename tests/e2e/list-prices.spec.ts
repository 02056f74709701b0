import type { APIRequestContext } from "@playwright/test"
import { expect, test } from "./coverage.ts"
import { HISTORY_STEP_MS } from "../../src/domain/priceHistory.ts"
import { catalogueEvent, fundedPlayer, openSignedIn, sportsData } from "./support.ts"

/** Fixtures other specs bet on or price by hand: this one prices another. */
const TAKEN = /Royal Challengers|Delhi Capitals|Gujarat Titans|Mumbai Indians|Sunrisers|Kerala Blasters|Valencia|Mohun Bagan|Bengaluru FC|Atletico Madrid/

/** An event in play (so on the home page's In-Play list) with Match Odds, that no other spec prices. */
const inPlayMatch = async (request: APIRequestContext) => {
  const events = (await sportsData(request)).filter((sport) => !["horse-racing", "greyhound-racing"].includes(sport.slugName))
    .flatMap((sport) => sport.leagues.flatMap((league) => league.events))
  const event = events.find((e) => e.inPlay && !TAKEN.test(e.name) && e.markets.some((m) => m.name === "Match Odds"))!
  return { event, market: event.markets.find((m) => m.name === "Match Odds")! }
}

/** Sets a runner's best back price by hand (lay 0.02 above), as an operator. */
const priceBy = (request: APIRequestContext, admin: string, marketId: string, selectionId: string) => (back: number) =>
  request.post("/api/v1/admin/market-price", {
    headers: { authorization: `Bearer ${admin}` },
    data: { marketId, selectionId, back: { price: back, size: 5000 }, lay: { price: back + 0.02, size: 5000 }, status: "OPEN" }
  }).then((res) => expect(res.status()).toBe(200))

test("the home list shows each event's Match Odds live, and a click on a price opens the event with the slip on it", async ({ page, request }) => {
  const player = await fundedPlayer(request, 1000)
  const { event, market } = await inPlayMatch(request)
  const runner = market.runners[0]!
  const price = priceBy(request, player.admin, market.marketId, runner.selectionId)
  await price(2)
  await openSignedIn(page, player.token, "/")
  const row = page.getByRole("region", { name: "In-Play" }).getByTestId(`list-prices-${event._id}`)
  // Every runner's back and lay: 1 and 2, or 1 X 2.
  await expect(row.getByRole("button", { name: /^(Back|Lay) / })).toHaveCount(market.runners.length * 2)
  await expect(row.getByRole("button", { name: `Back ${runner.name} at 2.00` })).toBeVisible()
  await expect(row.getByRole("button", { name: `Lay ${runner.name} at 2.02` })).toBeVisible()
  // The price moves on the list as it does on the event page (the same cells).
  await price(2.1)
  const back = row.getByRole("button", { name: `Back ${runner.name} at 2.10` })
  await expect(back).toBeVisible()
  await back.click()
  await expect(page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
  const slip = page.getByTestId("bet-slip")
  await expect(slip).toContainText(runner.name)
  await expect(slip.getByLabel("Odds")).toHaveValue("2.10")
  await expect(slip.getByLabel("Stake (₹)")).toBeFocused()
})

test("rows off screen do not watch their event's prices, and a row watches its one market", async ({ page }) => {
  const watched: Array<string> = []
  const wholeEvents: Array<string> = []
  page.on("websocket", (socket) => socket.on("framesent", ({ payload }) => {
    const match = /"odds\.watch(Market)?","([^"]+)"/.exec(String(payload))
    if (match) (match[1] ? watched : wholeEvents).push(match[2]!)
  }))
  await page.setViewportSize({ width: 1366, height: 500 })
  await page.goto("/")
  const rows = page.getByTestId(/^list-prices-/)
  await expect(rows.first().getByRole("button").first()).toBeVisible()
  const onScreen = await rows.evaluateAll((boxes) => boxes.filter((box) => box.getBoundingClientRect().top < window.innerHeight + 100).length)
  const total = await rows.count()
  expect(onScreen).toBeLessThan(total)
  await expect.poll(() => new Set(watched).size).toBeGreaterThan(0)
  expect(new Set(watched).size).toBeLessThanOrEqual(onScreen)
  expect(wholeEvents).toEqual([])
})

test("an exchange market's price chart loads only when opened, and a price move adds a point", async ({ page, request }) => {
  const player = await fundedPlayer(request, 100)
  const { event, market } = await inPlayMatch(request)
  const runner = market.runners[0]!
  const price = priceBy(request, player.admin, market.marketId, runner.selectionId)
  await price(3)
  const charts: Array<string> = []
  page.on("request", (req) => {
    if (/\/assets\/PriceChart-[^/]+\.js$/.test(req.url())) charts.push(req.url())
  })
  // The page's time is Playwright's, so the test can step it past a chart's step instead of waiting.
  await page.clock.install()
  await openSignedIn(page, player.token, (await catalogueEvent(request, event.name)).path)
  const section = page.getByTestId(`market-${market.marketId}`)
  const toggle = section.getByRole("button", { name: `Price chart: ${market.name}` })
  await expect(toggle).toHaveAttribute("aria-expanded", "false")
  expect(charts).toEqual([])

  await toggle.click()
  await expect(toggle).toHaveAttribute("aria-expanded", "true")
  const chart = section.getByRole("img", { name: new RegExp(`^${market.name} price chart, last hour`) })
  await expect(chart).toHaveAttribute("aria-label", new RegExp(`${runner.name} 3\\.00`))
  await expect(chart.locator("canvas")).toBeVisible()
  expect(charts).toHaveLength(1)
  const before = Number(await chart.getAttribute("data-points"))
  expect(before).toBeGreaterThan(0)

  // A step later the next price is a new point, at the end of the line.
  await page.clock.fastForward(HISTORY_STEP_MS)
  await price(3.5)
  await expect(chart).toHaveAttribute("aria-label", new RegExp(`${runner.name} 3\\.50`))
  expect(Number(await chart.getAttribute("data-points"))).toBeGreaterThan(before)

  await toggle.click()
  await expect(chart).toBeHidden()
})

test("on an event page the network losing its fairness leaves that line out; losing the chart's history offers Try again", async ({ page, request }) => {
  const player = await fundedPlayer(request, 100)
  const { event, market } = await inPlayMatch(request)
  // The browser aborts the first call of each: failures the page must handle, the server untouched.
  await page.route("**/api/v1/event-fairness?**", (route) => route.abort("internetdisconnected"), { times: 1 })
  await page.route("**/api/v1/price-history?**", (route) => route.abort("internetdisconnected"), { times: 1 })
  await openSignedIn(page, player.token, (await catalogueEvent(request, event.name)).path)
  const section = page.getByTestId(`market-${market.marketId}`)
  await expect(section.getByRole("button", { name: new RegExp(`^Back ${market.runners[0]!.name} at`) }).first()).toBeVisible()
  await expect(page.getByTestId("fairness")).toHaveCount(0)

  await section.getByRole("button", { name: `Price chart: ${market.name}` }).click()
  await expect(section.getByRole("status").filter({ hasText: "The price chart could not be loaded." })).toBeVisible()
  await section.getByRole("button", { name: "Try again" }).click()
  await expect(section.getByRole("img", { name: new RegExp(`^${market.name} price chart, last hour`) }).locator("canvas")).toBeVisible()
})
