import { expect, test } from "@playwright/test"
import { openDesk } from "./desk-support.ts"
import { fundedPlayer, openSignedIn } from "./support.ts"

/**
 * A withdrawal paid from the desk: the payout account with its copy buttons,
 * the bank's reference asked for, and the player's open /withdrawal list
 * showing it decided without a reload (a payout moves no balance shown).
 */
test("a withdrawal is paid with the bank's reference, copied from the payout account shown", async ({ page, browser, request }) => {
  const player = await fundedPlayer(request, 2000, "Desk Withdrawer")
  const added = await request.post("/api/v1/account-details", {
    headers: { authorization: `Bearer ${player.token}` },
    data: { type: "upi", accountNumber: "desk.withdrawer@okaxis", accountHolderName: "Desk Withdrawer" }
  })
  expect(added.status()).toBe(200)
  const accountId = (await added.json()).data._id as string
  expect((await request.post("/api/v1/withdrawal-request", { headers: { authorization: `Bearer ${player.token}` }, data: { amount: 700, accountId } })).status()).toBe(200)
  await openSignedIn(page, player.token, "/withdrawal")

  const desk = await openDesk(browser, "support")
  await desk.getByRole("navigation", { name: "Desk" }).getByRole("link", { name: "Withdrawals" }).click()
  await desk.getByRole("textbox", { name: "Player (name, username, mobile or id)" }).fill(player.user.username)
  await desk.getByRole("table", { name: "Withdrawal requests" }).getByRole("row", { name: /Desk Withdrawer/ }).click()
  const pane = desk.getByRole("complementary", { name: "Withdrawal request" })
  await expect(pane.getByRole("region", { name: "Payout account" }).or(pane.getByLabel("Payout account"))).toContainText("desk.withdrawer@okaxis")
  await expect(pane.getByRole("button", { name: "Copy UPI id" })).toBeVisible()
  // Credited by the house, not deposited: nothing deposited since (there was no payout before).
  await expect(pane.getByRole("region", { name: "Since the last payout" }).or(pane)).toContainText("first withdrawal")

  await pane.getByRole("button", { name: "Mark paid" }).click()
  await pane.getByRole("button", { name: "Mark paid" }).click()
  await expect(pane.getByRole("alert")).toHaveText("Enter the bank's reference of the payout.")
  await pane.getByRole("textbox", { name: /bank's reference/i }).fill("HDFC-IMPS-5501")
  await pane.getByRole("button", { name: "Mark paid" }).click()
  await expect(pane).toContainText("bank reference HDFC-IMPS-5501")
  await expect(pane.locator(".badge-approved")).toHaveText("paid")

  // The player's withdrawal list shows it decided without a reload.
  await expect(page.getByTestId("withdrawal-history").getByRole("row").nth(1)).toContainText("approved")
  await desk.context().close()
})
