import { expect, test } from "./coverage.ts"
import { apiLogin, catalogueEvent, openSignedIn } from "./support.ts"

test("the mobile bottom bar reaches Home, Sports, Inplay, Casino and Slots", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  const bar = page.getByRole("navigation", { name: "Main" })
  for (const [name, url] of [["Sports", /\/sports$/], ["Inplay", /\/inplay$/], ["Casino", /\/live-casino$/], ["Slots", /\/slots$/], ["Home", /\/$/]] as const) {
    await bar.getByRole("link", { name }).click()
    await expect(page).toHaveURL(url)
  }
})

test("the floating support link steps aside while a bet slip is open, where it would cover the slip", async ({ page, request }) => {
  const { path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  await openSignedIn(page, (await apiLogin(request, "demo")).token, path)
  const chat = page.getByRole("link", { name: "Chat with support" })
  await expect(chat).toBeVisible()
  await page.getByRole("button", { name: /^Back .* at / }).and(page.locator(":enabled")).first().click()
  const slip = page.getByTestId("bet-slip")
  await expect(slip).toBeVisible()
  await expect(chat).toBeHidden()
  await slip.getByRole("button", { name: "Close bet slip" }).click()
  await expect(slip).toBeHidden()
  await expect(chat).toBeVisible()
})
