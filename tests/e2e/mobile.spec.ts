import { expect, test } from "./coverage.ts"

test("the mobile bottom bar reaches Home, Sports, Inplay, Casino and Slots", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  const bar = page.getByRole("navigation", { name: "Main" })
  for (const [name, url] of [["Sports", /\/sports$/], ["Inplay", /\/inplay$/], ["Casino", /\/live-casino$/], ["Slots", /\/slots$/], ["Home", /\/$/]] as const) {
    await bar.getByRole("link", { name }).click()
    await expect(page).toHaveURL(url)
  }
})
