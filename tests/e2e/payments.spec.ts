import { expect, type Page, test } from "./coverage.ts"
import sharp from "sharp"
import { WAGERING_RULE } from "../../src/domain/bonus.ts"
import { DEFAULT_BONUS_RULES, referralRuleText } from "../../src/domain/bonusRules.ts"
import { apiLogin, catalogueEvent, createPlayer, openSignedIn } from "./support.ts"

const dialog = (page: Page) => page.getByRole("dialog")
const header = (page: Page) => page.getByRole("banner")
const toast = (page: Page, type: "success" | "warning" | "error", text: string) => page.getByTestId(`toast-${type}`).filter({ hasText: text })

const screenshotPng = () => sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer()

test("deposit by UPI with a screenshot; the operator approves; the header balance rises without a reload", async ({ page, request }) => {
  const player = await createPlayer(request, "Depositing Player")
  await openSignedIn(page, player.token, "/deposit")
  await expect(page.getByRole("heading", { name: "Deposit", exact: true })).toBeVisible()
  await expect(page.getByTestId("balance-balance")).toHaveText("₹0.00")

  const upi = page.getByTestId("deposit-account-upi").first()
  await expect(upi.getByRole("img", { name: /QR code/ })).toBeVisible()
  await upi.getByRole("button", { name: "Deposit by UPI" }).click()
  const modal = dialog(page)
  await expect(modal.getByRole("heading", { name: "Deposit by UPI" })).toBeVisible()
  await expect(modal.getByTestId("detail-upi-id")).toContainText("@")

  // The client checks of SPEC section 5, in order.
  await modal.getByRole("button", { name: "Confirm" }).click()
  await expect(toast(page, "warning", "Please enter amount")).toBeVisible()
  await modal.getByRole("textbox", { name: "Amount" }).fill("50")
  await modal.getByRole("button", { name: "Confirm" }).click()
  await expect(toast(page, "warning", "Min Deposit amount is 100")).toBeVisible()
  await modal.getByRole("group", { name: "Quick amounts" }).getByRole("button", { name: "1,000", exact: true }).click()
  await expect(modal.getByRole("textbox", { name: "Amount" })).toHaveValue("1000")
  await modal.getByRole("button", { name: "Confirm" }).click()
  await expect(toast(page, "warning", "Please provide reference-id or upload a screenshot.")).toBeVisible()

  // A screenshot instead of a reference, seen in the Uploaded Screenshot viewer first.
  await modal.getByTestId("screenshot-input").setInputFiles({ name: "payment.png", mimeType: "image/png", buffer: await screenshotPng() })
  await expect(modal.getByTestId("screenshot-name")).toHaveText("payment.png")
  await modal.getByRole("button", { name: "View" }).click()
  const viewer = page.getByTestId("screenshot-viewer")
  await expect(viewer.getByRole("heading", { name: "Uploaded Screenshot" })).toBeVisible()
  await expect(viewer.getByRole("img", { name: /payment.png/ })).toBeVisible()
  await viewer.getByRole("button", { name: "Close" }).click()
  await dialog(page).getByRole("button", { name: "Confirm" }).click()
  await expect(toast(page, "success", "Deposit request submitted")).toBeVisible()
  await expect(dialog(page)).toBeHidden()
  const history = page.getByTestId("deposit-history")
  await expect(history.getByRole("row").nth(1)).toContainText("₹1,000.00")
  await expect(history.getByRole("row").nth(1)).toContainText("pending")

  // The stored screenshot, re-encoded by the server, opens from the list.
  await history.getByRole("button", { name: "View" }).click()
  await expect(page.getByTestId("screenshot-viewer").getByRole("img")).toBeVisible()
  await page.getByTestId("screenshot-viewer").getByRole("button", { name: "Close" }).click()

  // The operator approves through the admin API; the socket event updates the header and the list.
  const admin = await apiLogin(request, "admin")
  const pending = await (await request.get("/api/v1/admin-deposit-request", { headers: { authorization: `Bearer ${player.token}` } })).json()
  const approved = await request.put(`/api/v1/admin/deposit-requests/${pending.data[0]._id}/approve`, { headers: { authorization: `Bearer ${admin.token}`, "idempotency-key": `e2e-${pending.data[0]._id}` }, data: {} })
  expect(approved.status()).toBe(200)
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,000.00")
  await expect(history.getByRole("row").nth(1)).toContainText("approved")

  // The first deposit brings the welcome bonus: activate it into the bonus wallet.
  await header(page).getByRole("link", { name: "Bonus" }).click()
  const card = page.getByTestId("bonus-card")
  await expect(card).toContainText("100% welcome bonus")
  await expect(card).toContainText("available")
  await card.getByRole("button", { name: "Activate" }).click()
  await expect(toast(page, "success", "Bonus activated")).toBeVisible()
  await expect(card).toContainText("active")
  await expect(page.getByTestId("bonus-wallet")).toHaveText("₹1,000.00")
  await expect(page.getByTestId("balance-bonus")).toHaveText("₹1,000.00")
  await expect(card.getByRole("button", { name: "Claim" })).toBeDisabled()
  // What counts towards the wagering is the domain's rule, said on the page, with what is left of it.
  await expect(page.getByTestId("wagering-rule")).toHaveText(WAGERING_RULE)
  await expect(card).toContainText(/₹[\d,]+\.\d\d left to wager\./)
})

test("add and edit a UPI id and a bank account, then withdraw: the amount is held at once", async ({ page, request }) => {
  const player = await createPlayer(request, "Withdrawing Player")
  const admin = await apiLogin(request, "admin")
  await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 1000 } })
  await openSignedIn(page, player.token, "/withdrawal")
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,000.00")

  await page.getByRole("button", { name: "Add UPI" }).click()
  await expect(dialog(page).getByRole("heading", { name: "Add UPI" })).toBeVisible()
  await dialog(page).getByRole("button", { name: "Add" }).click()
  await expect(toast(page, "warning", "Please fill all Fields")).toBeVisible()
  await dialog(page).getByLabel("UPI ID").fill("meera@okaxis")
  await dialog(page).getByLabel("Account Holder Name").fill("Meera Iyer")
  await dialog(page).getByRole("button", { name: "Add" }).click()
  await expect(toast(page, "success", "Your UPI has been added")).toBeVisible()
  await expect(page.getByTestId("account-upi")).toContainText("meera@okaxis")

  await page.getByTestId("account-upi").getByRole("button", { name: /Edit UPI/ }).click()
  await expect(dialog(page).getByRole("heading", { name: "Edit UPI" })).toBeVisible()
  await expect(dialog(page).getByLabel("UPI ID")).toHaveValue("meera@okaxis")
  await dialog(page).getByLabel("UPI ID").fill("meera.iyer@okaxis")
  await dialog(page).getByRole("button", { name: "Update" }).click()
  await expect(toast(page, "success", "Your UPI has been updated")).toBeVisible()
  await expect(page.getByTestId("account-upi")).toContainText("meera.iyer@okaxis")

  await page.getByRole("button", { name: "Add Bank Account" }).click()
  const bank = dialog(page)
  await expect(bank.getByRole("heading", { name: "Add Bank Account" })).toBeVisible()
  await expect(bank.getByLabel("Account Type")).toHaveValue("savings")
  await bank.getByLabel("Account Holder Name").fill("Meera Iyer")
  await bank.getByLabel("Bank Name").fill("State Bank of India")
  await bank.getByLabel("Account Number").fill("123456789012")
  await bank.getByLabel("IFSC Code").fill("SBIN123")
  await bank.getByRole("button", { name: "Add" }).click()
  await expect(toast(page, "warning", "IFSC code must look like")).toBeVisible()
  await bank.getByLabel("IFSC Code").fill("sbin0001234")
  await bank.getByRole("button", { name: "Add" }).click()
  await expect(toast(page, "success", "Bank Account has been added")).toBeVisible()
  await expect(page.getByTestId("account-bank")).toContainText("SBIN0001234 · savings")

  await page.getByTestId("account-bank").getByRole("button", { name: /Edit Bank Account/ }).click()
  await dialog(page).getByLabel("Account Type").selectOption("current")
  await dialog(page).getByRole("button", { name: "Update" }).click()
  await expect(toast(page, "success", "Bank Account has been updated")).toBeVisible()
  await expect(page.getByTestId("account-bank")).toContainText("current")

  // Withdraw to the UPI id: held at once, so the header drops before any operator acts.
  const form = page.getByRole("form", { name: "Withdraw" })
  await form.getByRole("textbox", { name: "Amount" }).fill("300")
  await form.getByLabel("To account").selectOption({ label: "UPI · meera.iyer@okaxis" })
  await form.getByRole("button", { name: "Withdraw" }).click()
  await expect(toast(page, "success", "Withdrawal requested")).toBeVisible()
  await expect(page.getByTestId("balance-balance")).toHaveText("₹700.00")
  await expect(page.getByTestId("withdrawal-history").getByRole("row").nth(1)).toContainText("pending")
  await form.getByRole("textbox", { name: "Amount" }).fill("5000")
  await form.getByRole("button", { name: "Withdraw" }).click()
  await expect(toast(page, "warning", "Insufficient balance")).toBeVisible()

  // The operator rejects it: the money comes back.
  const list = await (await request.get("/api/v1/admin/withdrawal-requests", { headers: { authorization: `Bearer ${admin.token}` } })).json()
  const mine = list.data.find((w: { user: { id: string } }) => w.user.id === player.user.id)
  await request.put(`/api/v1/admin/withdrawal-requests/${mine._id}/reject`, { headers: { authorization: `Bearer ${admin.token}` }, data: { remark: "Wrong account" } })
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,000.00")
  await expect(page.getByTestId("withdrawal-history").getByRole("row").nth(1)).toContainText("rejected")
})

test("wallet switch: the other wallet calls the server and says so; the active one does nothing", async ({ page, request }) => {
  const player = await createPlayer(request, "Switching Player")
  // The Bonus page always has the switch (the header has it on wide screens).
  await openSignedIn(page, player.token, "/bonus")
  const calls: Array<string> = []
  page.on("request", (r) => {
    if (r.url().endsWith("/api/v1/wallet")) calls.push(r.method())
  })
  const walletSwitch = page.getByRole("main").getByTestId("wallet-switch")
  await expect(walletSwitch.getByRole("radio", { name: "Main" })).toHaveAttribute("aria-checked", "true")
  await walletSwitch.getByRole("radio", { name: "Bonus" }).click()
  const changed = toast(page, "success", "Wallet Changed")
  await expect(changed).toBeVisible()
  await expect(changed).toContainText("Your Money, Your Way")
  await expect(walletSwitch.getByRole("radio", { name: "Bonus" })).toHaveAttribute("aria-checked", "true")
  expect(calls).toEqual(["PUT"])
  await walletSwitch.getByRole("radio", { name: "Bonus" }).click()
  await page.waitForTimeout(300)
  expect(calls).toEqual(["PUT"])
  // The choice is the server's: it is still there after a reload.
  await page.reload()
  await expect(page.getByRole("main").getByTestId("wallet-switch").getByRole("radio", { name: "Bonus" })).toHaveAttribute("aria-checked", "true")
})

test("statements and profit and loss show the movements with running balances and totals", async ({ page, request }) => {
  const player = await createPlayer(request, "Statement Player")
  const admin = await apiLogin(request, "admin")
  const auth = { authorization: `Bearer ${player.token}` }
  await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 2000, note: "Welcome credit" } })
  const upi = await (await request.post("/api/v1/account-details", { headers: auth, data: { type: "upi", accountNumber: "stmt@ybl", accountHolderName: "Statement Player" } })).json()
  await request.post("/api/v1/withdrawal-request", { headers: auth, data: { amount: 450.5, accountId: upi.data._id } })

  await openSignedIn(page, player.token, "/statements")
  await expect(page.getByRole("heading", { name: "Account Statements" })).toBeVisible()
  const table = page.getByTestId("statement")
  await expect(table.getByRole("row").nth(1)).toContainText("Withdrawal requested")
  await expect(table.getByRole("row").nth(1)).toContainText("₹450.50")
  await expect(table.getByRole("row").nth(1)).toContainText("₹1,549.50")
  await expect(table.getByRole("row").nth(2)).toContainText("Welcome credit")
  await expect(table.getByRole("row").nth(2)).toContainText("₹2,000.00")
  await expect(table.locator("tfoot")).toContainText("₹2,000.00")
  await expect(table.locator("tfoot")).toContainText("₹450.50")
  await expect(page.getByTestId("statement-summary")).toContainText("closing balance ₹1,549.50")

  await page.getByRole("tab", { name: "Deposits & withdrawals" }).click()
  await expect(table.getByRole("row").nth(1)).toContainText("Withdrawal requested")

  // A range before the movements shows none, with the opening balance carried.
  const range = page.getByRole("form", { name: "Date range" })
  await range.getByLabel("From").fill("2026-01-01")
  await range.getByLabel("To").fill("2026-01-02")
  await range.getByRole("button", { name: "Search" }).click()
  await expect(table).toContainText("No Data Available")

  await header(page).getByRole("button", { name: /Account menu/ }).click()
  await page.getByRole("menuitem", { name: "Profit And Loss" }).click()
  await expect(page.getByRole("heading", { name: "Profit and Loss" })).toBeVisible()
  await expect(page.getByTestId("profit-loss")).toContainText("No Data Available")
  await expect(page.getByTestId("pl-total")).toHaveText("0.00")
})

test("credit players have no deposit, withdrawal, bonus, referral or wallet switch", async ({ page, request }) => {
  const credit = await apiLogin(request, "credit")
  await openSignedIn(page, credit.token, "/deposit")
  await expect(page.getByRole("note")).toContainText("Credit accounts have no deposit")
  await expect(page.getByTestId("wallet-switch")).toHaveCount(0)
  await page.goto("/statements")
  await expect(page.getByRole("heading", { name: "Account Statements" })).toBeVisible()
  await expect(page.getByTestId("statement")).toBeVisible()
})

test("a friend's screenshot-only deposit sends txnRef empty; forfeiting the bonus asks first; the referrer claims the reward from a weekly list asked for by startDate and endDate", async ({ page, browser, request }) => {
  const referrer = await createPlayer(request, "Referring Player")
  const friend = await createPlayer(request, "Referred Friend", referrer.user.referralCode)

  // The friend deposits with a screenshot only: the payload still carries txnRef (SPEC section 3), empty.
  await openSignedIn(page, friend.token, "/deposit")
  await page.getByTestId("deposit-account-upi").first().getByRole("button", { name: "Deposit by UPI" }).click()
  const modal = dialog(page)
  await modal.getByRole("group", { name: "Quick amounts" }).getByRole("button", { name: "1,000", exact: true }).click()
  await modal.getByTestId("screenshot-input").setInputFiles({ name: "payment.png", mimeType: "image/png", buffer: await screenshotPng() })
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/v1/admin-deposit-request"))
  await modal.getByRole("button", { name: "Confirm" }).click()
  const payload = (await sent).postDataJSON()
  expect(payload).toMatchObject({ amount: 1000, type: "upi", txnRef: "" })
  expect(payload.baseImage).toMatch(/^data:image\/png;base64,/)
  await expect(toast(page, "success", "Deposit request submitted")).toBeVisible()

  const admin = await apiLogin(request, "admin")
  const pending = await (await request.get("/api/v1/admin-deposit-request", { headers: { authorization: `Bearer ${friend.token}` } })).json()
  const approved = await request.put(`/api/v1/admin/deposit-requests/${pending.data[0]._id}/approve`, { headers: { authorization: `Bearer ${admin.token}`, "idempotency-key": `e2e-${pending.data[0]._id}` }, data: {} })
  expect(approved.status()).toBe(200)
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,000.00")

  // Forfeiting asks first: keeping it sends nothing; confirming forfeits.
  await header(page).getByRole("link", { name: "Bonus" }).click()
  const card = page.getByTestId("bonus-card")
  await expect(card).toContainText("available")
  await card.getByRole("button", { name: "Forfeit" }).click()
  const confirm = page.getByTestId("forfeit-dialog")
  await expect(confirm.getByRole("heading", { name: "Forfeit this bonus?" })).toBeVisible()
  await confirm.getByRole("button", { name: "Keep it" }).click()
  await expect(confirm).toBeHidden()
  await expect(card).toContainText("available")
  await card.getByRole("button", { name: "Forfeit" }).click()
  await page.getByTestId("forfeit-dialog").getByRole("button", { name: "Forfeit" }).click()
  await expect(toast(page, "success", "Bonus forfeited")).toBeVisible()
  await expect(card).toContainText("forfeited")
  await expect(card.getByRole("button")).toHaveCount(0)

  // The referrer earns 10 % of the friend's first deposit once the friend has wagered it.
  const referrerPage = await (await browser.newContext()).newPage()
  const weekly = referrerPage.waitForRequest((r) => r.url().includes("/api/v1/get-weekly-refferal-transactions"))
  await openSignedIn(referrerPage, referrer.token, "/referral-bonus")
  const asked = new URL((await weekly).url()).searchParams
  expect(asked.get("startDate")).toMatch(/^\d{4}-\d{2}-\d{2}T/)
  expect(asked.get("endDate")).toMatch(/^\d{4}-\d{2}-\d{2}T/)
  await expect(referrerPage.getByTestId("referral-link")).toContainText(`referral_code=${referrer.user.referralCode}`)
  await expect(referrerPage.getByText(referralRuleText(DEFAULT_BONUS_RULES.referral), { exact: false })).toBeVisible()
  await expect(referrerPage.getByTestId("referral-users")).toContainText("Awaiting their play")
  await expect(referrerPage.getByTestId("ref-bonus")).toHaveText("₹0.00")

  // The friend's ₹1,000 backed at 2.00 on a market alone (Over/Under of a match no other test bets on), and lost.
  const { event } = await catalogueEvent(request, "Kerala Blasters v FC Goa")
  const overUnder = event.markets.find((m) => m.name.startsWith("Over/Under"))!
  const [under, over] = overUnder.runners
  const asAdmin = { headers: { authorization: `Bearer ${admin.token}` } }
  expect((await request.post("/api/v1/admin/market-price", { ...asAdmin, data: { marketId: overUnder.marketId, selectionId: under!.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" } })).status()).toBe(200)
  expect((await request.post("/api/v1/bet-sport", { headers: { authorization: `Bearer ${friend.token}` }, data: { marketId: overUnder.marketId, selectionId: under!.selectionId, selectionType: "back", odds: 2, stake: 1000 } })).status()).toBe(200)
  expect((await request.post("/api/v1/admin/settle-market", { ...asAdmin, data: { marketId: overUnder.marketId, result: over!.selectionId } })).status()).toBe(200)

  // Rewarded, listed by week and claimed to the main balance.
  await referrerPage.reload()
  await expect(referrerPage.getByTestId("ref-bonus")).toHaveText("₹100.00")
  await expect(referrerPage.getByTestId("referral-users")).toContainText(friend.user.username)
  await expect(referrerPage.getByTestId("referral-weekly").getByRole("row").nth(1)).toContainText("₹100.00")
  await referrerPage.getByRole("button", { name: "Claim to main balance" }).click()
  await expect(toast(referrerPage, "success", "Referral bonus claimed to your main balance")).toBeVisible()
  await expect(referrerPage.getByTestId("ref-bonus")).toHaveText("₹0.00")
  await expect(referrerPage.getByTestId("balance-balance")).toHaveText("₹100.00")
  await expect(referrerPage.getByTestId("referral-transactions")).toContainText("Referral bonus claimed to main balance")
  await expect(referrerPage.getByRole("button", { name: "Claim to main balance" })).toBeDisabled()
})
