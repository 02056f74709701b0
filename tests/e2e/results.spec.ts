import { expect, test } from "./coverage.ts"
import { settleARace } from "./results-support.ts"

test("a race settled by the operator shows on /results, reached from the footer and the sports sidebar", async ({ page, request }) => {
  const { race, winner } = await settleARace(request)
  await page.goto("/")
  await page.getByRole("contentinfo").getByRole("link", { name: "Results" }).click()
  await expect(page).toHaveURL(/\/results$/)
  await expect(page.getByRole("heading", { name: "Results", level: 1 })).toBeVisible()
  const today = page.getByRole("region", { name: "Today" })
  const row = today.getByRole("table", { name: "Horse Racing" }).getByRole("row").filter({ hasText: race.name })
  await expect(row).toContainText("Win")
  await expect(row).toContainText(winner)

  // One sport at a time: football has no race.
  await page.getByRole("button", { name: "Football", exact: true }).click()
  await expect(page.getByRole("button", { name: "Football", exact: true })).toHaveAttribute("aria-pressed", "true")
  await expect(page.getByRole("row").filter({ hasText: race.name })).toHaveCount(0)
  await page.getByRole("button", { name: "Horse Racing", exact: true }).click()
  await expect(page.getByRole("row").filter({ hasText: race.name })).toContainText(winner)

  // The sports sidebar links here too.
  await page.goto("/sports")
  await page.getByRole("complementary", { name: "Sports" }).getByRole("link", { name: "Results" }).click()
  await expect(page).toHaveURL(/\/results$/)
})
