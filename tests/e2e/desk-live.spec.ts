import { expect, test } from "@playwright/test"
import { openDesk } from "./desk-support.ts"
import { createPlayer, openSignedIn } from "./support.ts"

/**
 * Four eyes and the live desk in Chromium: an admin's adjustment above the
 * threshold (₹10,000 until the DIRECTOR sets it) waits until the director
 * approves it; the player's balance changes then, in their open tab too,
 * and the director's open audit list shows each step without a reload.
 */
test("a large adjustment waits for a second staff member, who approves it: the player's balance changes, the audit shows it live", async ({ page, browser, request }) => {
  const player = await createPlayer(request, "Desk Live Kavya")
  await openSignedIn(page, player.token, "/")
  await expect(page.getByTestId("balance-balance")).toHaveText("₹0.00")

  const audit = await openDesk(browser, "director", "/admin/audit")
  await audit.getByRole("search", { name: "Search the audit" }).getByRole("textbox", { name: "Record id" }).fill(player.user.id)
  const lines = audit.getByRole("table", { name: "Staff actions" })
  await expect(lines).toContainText("No actions match.")

  const admin = await openDesk(browser, "admin", `/admin/players/${player.user.id}`)
  await admin.getByRole("button", { name: "Adjust balance" }).click()
  const dialog = admin.getByRole("dialog", { name: "Manual adjustment" })
  await dialog.getByRole("textbox", { name: "Amount (₹)" }).fill("15000")
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Tournament prize")
  await dialog.getByRole("button", { name: "Credit" }).click()
  await expect(dialog).toBeHidden()
  await expect(admin.getByText("Waiting for a second approver: the adjustment is above the threshold")).toBeVisible()
  const waiting = admin.getByRole("table", { name: "Adjustments waiting for a second approver" }).getByRole("row", { name: /Tournament prize/ })
  // The one who asked may withdraw it, never approve it.
  await expect(waiting.getByRole("button", { name: "Withdraw" })).toBeVisible()
  await expect(waiting.getByRole("button", { name: "Approve" })).toHaveCount(0)
  await expect(admin.getByRole("region", { name: "Balances" })).toContainText("₹0.00")
  await expect(lines.getByRole("row", { name: /player\.credit\.request/ })).toContainText("admin (Admin)")

  // The director's second tab (the same desk session) finds the request on the players screen.
  const director = await audit.context().newPage()
  await director.goto("/admin/players")
  await director.getByRole("table", { name: "Adjustments waiting for a second approver" }).getByRole("link", { name: /Desk Live Kavya/ }).click()
  await director.getByRole("table", { name: "Adjustments waiting for a second approver" }).getByRole("row", { name: /Tournament prize/ }).getByRole("button", { name: "Approve" }).click()
  await expect(director.getByText("Approved. Credited: the main balance is now ₹15,000.00")).toBeVisible()
  await expect(director.getByRole("region", { name: "Balances" })).toContainText("₹15,000.00")
  await expect(director.getByRole("table", { name: "Adjustments waiting for a second approver" })).toHaveCount(0)
  // The asker's page and the player's tab hear of it without a reload.
  await expect(admin.getByRole("region", { name: "Balances" })).toContainText("₹15,000.00")
  await expect(waiting).toHaveCount(0)
  await expect(page.getByTestId("balance-balance")).toHaveText("₹15,000.00")
  await expect(lines.getByRole("row", { name: /player\.credit\.approve/ })).toContainText("director (Director)")
  await expect(lines.getByRole("cell", { name: "player.credit", exact: true })).toHaveCount(1)
  await Promise.all([admin.context().close(), audit.context().close()])
})

test("the director switches a casino game off and on: the lobby stops and starts listing it", async ({ browser, request }) => {
  const lobby = async () => ((await (await request.get("/api/v1/casino-games?slots=true")).json()).data as Array<{ title: string }>).map((game) => game.title)
  const title = (await lobby()).at(-1)!
  const desk = await openDesk(browser, "director", "/admin/casino")
  const game = desk.getByRole("switch", { name: `${title} on` })
  await expect(game).toBeChecked()
  await game.uncheck()
  await expect(game).not.toBeChecked()
  await expect(desk.getByText("Game updated")).toBeVisible()
  expect(await lobby()).not.toContain(title)
  await game.check()
  await expect(game).toBeChecked()
  expect(await lobby()).toContain(title)
  await desk.context().close()
})
