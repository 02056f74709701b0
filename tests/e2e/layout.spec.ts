import { PASSWORD_HINT } from "../../src/domain/validation.ts"
import { expect, test } from "./coverage.ts"
import { shoot, titleFits } from "./looks.ts"
import { catalogueEvent, waitForApp } from "./support.ts"

/**
 * What a newcomer sees on a 1366 px laptop (issue 30): the tab's title per route, the sign-up form on one screen,
 * casino titles that fit. Screenshots are kept beside the results for a person to look at.
 */

test("each route has its own document title: the section's name, or the event's", async ({ page, request }) => {
  const { event, path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  const site = (await (await request.get("/api/v1/app-settings")).json()).data.siteTitle as string
  await page.goto("/")
  await waitForApp(page)
  await expect(page).toHaveTitle(site)
  // Moving within the site (no reload) changes the title too.
  for (const section of ["In-Play", "Sports", "Live Casino"]) {
    await page.getByRole("contentinfo").getByRole("link", { name: section, exact: true }).click()
    await expect(page).toHaveTitle(`${section} — ${site}`)
  }
  await page.goto(path)
  await expect(page).toHaveTitle(`${event.name} — ${site}`)
  await page.goto("/statements")
  await expect(page).toHaveTitle(`Account Statements — ${site}`)
})

test("sign-up fits a 1366×768 screen: every field, the 18+ tick and Create account without scrolling; the hint says what a password needs", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await page.goto("/")
  await waitForApp(page)
  await page.getByRole("banner").getByRole("button", { name: "Register" }).click()
  const modal = page.getByRole("dialog")
  await expect(modal.getByRole("heading", { name: "Create your account" })).toBeVisible()
  for (const control of [modal.getByLabel("Name"), modal.getByLabel("State you live in"), modal.getByRole("checkbox", { name: /I am 18 or older/ }), modal.getByRole("button", { name: "Create account", exact: true })]) {
    await expect(control).toBeInViewport({ ratio: 1 })
  }
  const body = modal.locator("[data-dialog-body]")
  expect(await body.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(0)
  await expect(modal.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(PASSWORD_HINT)
  await shoot(page, "sign-up-1366x768")
})

test("casino titles fit their cards in the sliders and lobbies, and each slot has art of its own", async ({ page, request }) => {
  await page.goto("/")
  await waitForApp(page)
  const topCasino = page.getByRole("region", { name: "Top Casino" })
  await expect(topCasino.getByTestId("game-title").first()).toBeVisible()
  for (const title of await topCasino.getByTestId("game-title").all()) expect(await titleFits(title), await title.textContent() ?? "").toBe(true)

  const { path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  await page.goto(path)
  const sidebarCasino = page.getByRole("complementary", { name: "Live score and my bets" }).getByTestId("game-title")
  await expect(sidebarCasino.filter({ hasText: "Khel Andar Bahar" }).first()).toBeVisible()
  for (const title of await sidebarCasino.all()) expect(await titleFits(title), await title.textContent() ?? "").toBe(true)
  await shoot(page, "event-sidebar-casino")

  await page.goto("/slots")
  const cards = page.getByTestId("game-card")
  await expect(cards.first()).toBeVisible()
  for (const title of await page.getByTestId("game-title").all()) expect(await titleFits(title), await title.textContent() ?? "").toBe(true)
  // The server draws each slot's art: no two slots of the lobby share a picture.
  const sources = await cards.locator("img").evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))
  const pictures = await Promise.all(sources.map(async (src) => (await request.get(src)).body()))
  expect(pictures.length).toBeGreaterThan(3)
  expect(new Set(pictures.map((bytes) => bytes.toString("base64"))).size).toBe(pictures.length)
  await shoot(page, "slots-lobby")
})
