import { expect, test } from "@playwright/test"
import { deskSignIn } from "../http.ts"
import { openDesk } from "./desk-support.ts"
import { baseUrl, createPlayer, openSignedIn } from "./support.ts"

/**
 * The players screen in Chromium: staff find a player, read their page, add
 * a note, adjust their balance (the player's open tab hears it) and suspend
 * them; support sees no adjustment and the server refuses it anyway.
 */
test("an admin finds a player by mobile number, credits them with a reason, notes and suspends them", async ({ page, browser, request }) => {
  const player = await createPlayer(request, "Desk Players Rohan")
  await openSignedIn(page, player.token, "/")
  await expect(page.getByTestId("balance-balance")).toHaveText("₹0.00")

  const desk = await openDesk(browser, "admin", "/admin/players")
  await desk.getByRole("searchbox", { name: "Name, username, mobile or id" }).fill(player.national)
  await desk.getByRole("table", { name: "Players" }).getByRole("row", { name: /Desk Players Rohan/ }).click()
  await expect(desk).toHaveURL(new RegExp(`/admin/players/${player.user.id}$`))
  await expect(desk.getByRole("heading", { level: 1 })).toContainText("Desk Players Rohan")
  await expect(desk.getByRole("region", { name: "Balances" })).toContainText("₹0.00")

  await desk.getByRole("button", { name: "Adjust balance" }).click()
  const dialog = desk.getByRole("dialog", { name: "Manual adjustment" })
  await dialog.getByRole("textbox", { name: "Amount (₹)" }).fill("750")
  await dialog.getByRole("button", { name: "Credit" }).click()
  await expect(dialog.getByRole("alert")).toHaveText("Give the reason: the player's statement shows it.")
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Goodwill: late payout")
  await dialog.getByRole("button", { name: "Credit" }).click()
  await expect(dialog).toBeHidden()
  await expect(desk.getByText("Credited: the main balance is now ₹750.00")).toBeVisible()
  await expect(desk.getByRole("region", { name: "Balances" })).toContainText("₹750.00")
  await expect(desk.getByRole("table", { name: "Statement" }).getByRole("row").nth(1)).toContainText("Goodwill: late payout")
  // The player's open tab hears of it without a reload.
  await expect(page.getByTestId("balance-balance")).toHaveText("₹750.00")

  const notes = desk.getByRole("region", { name: "Notes" })
  await notes.getByRole("textbox", { name: "Note" }).fill("Asked about the IPL bonus.")
  await notes.getByRole("button", { name: "Add note" }).click()
  await expect(notes.getByRole("listitem")).toContainText("admin: Asked about the IPL bonus.")

  await desk.getByRole("button", { name: "Suspend" }).click()
  const suspend = desk.getByRole("dialog", { name: "Suspend player" })
  await suspend.getByRole("textbox", { name: "Reason" }).fill("Chargeback from the bank")
  await suspend.getByRole("button", { name: "Suspend" }).click()
  await expect(desk.getByRole("heading", { level: 1 })).toContainText("suspended")
  await expect(desk.getByRole("region", { name: "Sessions" })).toContainText("Not signed in anywhere.")
  expect((await request.get("/api/v1/getUserData", { headers: { authorization: `Bearer ${player.token}` } })).status()).toBe(401)
  await desk.getByRole("button", { name: "Reactivate" }).click()
  await desk.getByRole("dialog", { name: "Reactivate player" }).getByRole("textbox", { name: "Reason" }).fill("Bank cleared it")
  await desk.getByRole("dialog", { name: "Reactivate player" }).getByRole("button", { name: "Reactivate" }).click()
  await expect(desk.getByRole("heading", { level: 1 })).toContainText("active")
  await desk.context().close()
})

test("support reads a player's page without the adjustment, and the server refuses one anyway", async ({ browser, request }) => {
  const player = await createPlayer(request, "Desk Players Support")
  const desk = await openDesk(browser, "support", `/admin/players/${player.user.id}`)
  await expect(desk.getByRole("heading", { level: 1 })).toContainText("Desk Players Support")
  await expect(desk.getByRole("button", { name: "Suspend" })).toBeVisible()
  await expect(desk.getByRole("button", { name: "Adjust balance" })).toHaveCount(0)
  const token = await desk.evaluate(() => localStorage.getItem("khel.desk.token"))
  const refused = await request.post(`/api/v1/desk/players/${player.user.id}/adjustments`, {
    headers: { authorization: `Bearer ${token}` },
    data: { direction: "credit", amount: 100, reason: "Trying" }
  })
  expect(refused.status()).toBe(403)
  await desk.context().close()
})

test("a note added while the player's page reads itself again is kept and added once the page is read", async ({ browser, request }) => {
  const player = await createPlayer(request, "Desk Players Reload")
  const desk = await openDesk(browser, "admin", `/admin/players/${player.user.id}`)
  await expect(desk.getByRole("heading", { level: 1 })).toContainText("Desk Players Reload")
  // Hold the page's next read of the player until the note is sent.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let reads = 0
  await desk.route(`**/api/v1/desk/players/${player.user.id}`, async (route) => {
    reads++
    await held
    await route.continue()
  })
  // Support notes the player meanwhile: the open page hears it and reads the player again.
  const support = await deskSignIn(baseUrl(), "support")
  const noted = await request.post(`/api/v1/desk/players/${player.user.id}/notes`, { headers: { authorization: `Bearer ${support.token}` }, data: { body: "Called about a deposit." } })
  expect(noted.ok()).toBe(true)
  await expect.poll(() => reads).toBe(1)
  const notes = desk.getByRole("region", { name: "Notes" })
  await notes.getByRole("textbox", { name: "Note" }).fill("Deposit found, credited.")
  await notes.getByRole("button", { name: "Add note" }).click()
  release()
  await expect(notes.getByRole("listitem")).toHaveText(["admin: Deposit found, credited.", "support: Called about a deposit."].map((text) => new RegExp(text)))
  await desk.context().close()
})
