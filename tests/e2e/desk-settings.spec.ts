import { expect, test } from "@playwright/test"
import { deskSignIn } from "../http.ts"
import { openDesk } from "./desk-support.ts"
import { baseUrl, waitForApp } from "./support.ts"

/**
 * The settings screen in Chromium: an ADMIN renames the site and the player
 * site shows the new title at its next load; support sees no Settings and
 * the server refuses its call.
 */
test("an admin changes the site title on the desk and the player site shows it; support has no Settings and gets 403", async ({ page, browser, request }) => {
  const admin = await deskSignIn(baseUrl(), "admin")
  const headers = { authorization: `Bearer ${admin.token}` }
  const before = (await (await request.get("/api/v1/desk/site-settings", { headers })).json()).data
  const title = `Khel Desk ${Date.now().toString(36)}`
  try {
    const desk = await openDesk(browser, "admin", "/admin/settings")
    const form = desk.getByRole("form", { name: "Site settings" })
    const field = form.getByRole("textbox", { name: "Site title" })
    await expect(field).toHaveValue(before.siteTitle)
    await field.fill("  ")
    await form.getByRole("button", { name: "Save site settings" }).click()
    await expect(form.getByRole("alert")).toHaveText("Give the site a title.")
    await field.fill(title)
    await form.getByRole("button", { name: "Save site settings" }).click()
    await expect(desk.getByText("Site settings saved")).toBeVisible()
    await expect(form.getByRole("alert")).toHaveCount(0)
    // Kept beside the results for a person to look at.
    await expect(desk.getByRole("table", { name: "Banners" }).getByRole("row")).not.toHaveCount(1)
    await desk.screenshot({ path: test.info().outputPath("desk-settings.png"), fullPage: true })
    await desk.context().close()

    await page.goto("/")
    await waitForApp(page)
    await expect(page).toHaveTitle(title)
    await expect(page.getByRole("link", { name: `${title}: home` }).first()).toBeVisible()
  } finally {
    await request.put("/api/v1/desk/site-settings", { headers, data: before })
  }

  const support = await openDesk(browser, "support")
  await expect(support.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Deposits" })).toBeVisible()
  await expect(support.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Settings" })).toHaveCount(0)
  const { token } = await deskSignIn(baseUrl(), "support")
  const refused = await request.get("/api/v1/desk/site-settings", { headers: { authorization: `Bearer ${token}` } })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).meta).toMatchObject({ code: 403 })
  await support.context().close()
})
