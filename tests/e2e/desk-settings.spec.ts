import { expect, test } from "@playwright/test"
import { deskSignIn, freshUtr } from "../http.ts"
import { openDesk } from "./desk-support.ts"
import { Roles } from "../../src/schema/user.ts"
import { baseUrl, createPlayer, freshNational, openSignedIn, waitForApp } from "./support.ts"

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

/**
 * The bonus rules: an ADMIN raises the welcome percent on the desk (a bad
 * value first, refused with its reason); a player with no bonus reads the new
 * terms, and their first deposit is granted by them.
 */
test("an admin changes the welcome percent; the player site states it and the next deposit is granted by it", async ({ page, browser, request }) => {
  const admin = await deskSignIn(baseUrl(), "admin")
  const headers = { authorization: `Bearer ${admin.token}` }
  const before = (await (await request.get("/api/v1/desk/bonus-rules", { headers })).json()).data
  try {
    const desk = await openDesk(browser, "admin", "/admin/settings")
    const form = desk.getByRole("form", { name: "Bonus rules" })
    const percent = form.getByRole("textbox", { name: "Welcome percent" })
    await expect(percent).toHaveValue(String(before.welcome.percent))
    await percent.fill("-5")
    await form.getByRole("button", { name: "Save bonus rules" }).click()
    await expect(form.getByRole("alert")).toHaveText("The welcome bonus's percent is a whole number from 1 to 500.")
    await percent.fill("150")
    await form.getByRole("textbox", { name: "Welcome title" }).fill("150% welcome bonus")
    await form.getByRole("button", { name: "Save bonus rules" }).click()
    await expect(desk.getByText("Bonus rules saved")).toBeVisible()
    await expect(form.getByRole("alert")).toHaveCount(0)
    await expect(percent).toHaveValue("150")
    await desk.context().close()

    const player = await createPlayer(request, "Welcome Player")
    await openSignedIn(page, player.token, "/bonus")
    await expect(page.getByTestId("welcome-terms")).toHaveText(`No bonus yet. Your first approved deposit brings a 150% welcome bonus, up to ₹10,000.00, to wager ${before.welcome.wagerTimes} times before you claim it.`)

    const auth = { authorization: `Bearer ${player.token}` }
    const [account] = (await (await request.get("/api/v1/admin-account-details", { headers: auth })).json()).data
    const deposit = await request.post("/api/v1/admin-deposit-request", { headers: auth, data: { amount: 1000, accountId: account._id, type: "upi", txnRef: freshUtr() } })
    expect(deposit.status()).toBe(200)
    const approved = await request.put(`/api/v1/admin/deposit-requests/${(await deposit.json()).data._id}/approve`, { headers, data: {} })
    expect(approved.status()).toBe(200)
    await page.reload()
    const card = page.getByTestId("bonus-card")
    await expect(card).toContainText("150% welcome bonus")
    await expect(card).toContainText("₹1,500.00")
  } finally {
    await request.put("/api/v1/desk/bonus-rules", { headers, data: before })
  }
})

/**
 * Staff accounts: a DIRECTOR creates one with a role (an incomplete form is
 * refused first) and the list shows it; an ADMIN's Settings have no staff
 * accounts and the server refuses their calls.
 */
test("a director creates a staff account with a role and the list shows it; an admin sees no staff accounts and gets 403", async ({ browser, request }) => {
  const username = `e2e.staff.${Date.now().toString(36)}`
  const director = await openDesk(browser, "director", "/admin/settings")
  const form = director.getByRole("form", { name: "Create a staff account" })
  await form.getByRole("textbox", { name: "Name", exact: true }).fill("Priya Nair")
  await form.getByRole("button", { name: "Create staff account" }).click()
  await expect(form.getByRole("alert")).toHaveText("Fill in every field.")
  await form.getByRole("textbox", { name: "Username" }).fill(username)
  await form.getByRole("textbox", { name: "Mobile number" }).fill(freshNational())
  await form.getByRole("combobox", { name: "Role" }).selectOption({ label: "Support" })
  await form.getByLabel("First password").fill("Ledger-Kite-92!")
  await form.getByRole("button", { name: "Create staff account" }).click()
  await expect(director.getByText(`Staff account ${username} created`)).toBeVisible()
  await expect(form.getByRole("alert")).toHaveCount(0)
  const row = director.getByRole("table", { name: "Staff accounts" }).getByRole("row").filter({ hasText: `@${username}` })
  await expect(row).toContainText("Priya Nair")
  await expect(row.getByRole("combobox", { name: `Role of ${username}` })).toHaveValue(String(Roles.SUPPORT_ADMIN))
  await expect(row.getByRole("button", { name: `Suspend ${username}` })).toBeVisible()
  await director.context().close()

  const admin = await openDesk(browser, "admin", "/admin/settings")
  await expect(admin.getByRole("heading", { name: "Bonus and referral rules" })).toBeVisible()
  await expect(admin.getByRole("region", { name: "Staff accounts" })).toHaveCount(0)
  await expect(admin.getByRole("form", { name: "Create a staff account" })).toHaveCount(0)
  await admin.context().close()
  const { token } = await deskSignIn(baseUrl(), "admin")
  const headers = { authorization: `Bearer ${token}` }
  expect((await request.get("/api/v1/desk/staff", { headers })).status()).toBe(403)
  const refused = await request.post("/api/v1/desk/staff", { headers, data: { name: "By Admin", username: `${username}.x`, mobileNo: freshNational(), role: Roles.ADMIN, password: "Ledger-Kite-92!" } })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).meta).toMatchObject({ code: 403 })
})
