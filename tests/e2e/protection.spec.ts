import { type APIRequestContext, expect, type Page, test } from "./coverage.ts"
import { apiLogin, createPlayer, openSignedIn, waitForApp } from "./support.ts"

/**
 * Player protection in Chromium against the real server. Cooling-off periods
 * and reminders are stepped over by moving the server's test clock
 * (TEST_CLOCK, POST /api/v1/test/clock), never by waiting; it only moves
 * forward, so other specs see nothing but a later time.
 */

// Each test walks several pages, each a full load of the site: on a loaded 2-core machine that is more than the default minute.
test.describe.configure({ timeout: 180_000 })

const toast = (page: Page, type: "success" | "warning" | "error", text: string | RegExp) => page.getByTestId(`toast-${type}`).filter({ hasText: text })

const moveServerClock = async (request: APIRequestContext, seconds: number) => {
  const res = await request.post("/api/v1/test/clock", { data: { seconds } })
  expect(res.status()).toBe(200)
}

const depositByUpi = async (page: Page, amount: string) => {
  await page.getByTestId("deposit-account-upi").first().getByRole("button", { name: "Deposit by UPI" }).click()
  const modal = page.getByRole("dialog")
  await modal.getByRole("textbox", { name: "Amount" }).fill(amount)
  await modal.getByRole("textbox", { name: "Transaction reference (UTR)" }).fill(`${Date.now()}`.slice(-12).padStart(12, "4"))
  await modal.getByRole("button", { name: "Confirm" }).click()
}

test("a deposit limit: prompted on the deposit page, enforced, raised only after 24 hours and a confirmation", async ({ page, request }) => {
  const player = await createPlayer(request, "Limited Player")
  await openSignedIn(page, player.token, "/deposit")

  // The deposit page prompts for a limit and links to it.
  const prompt = page.getByTestId("deposit-limit-prompt")
  await expect(prompt).toContainText("Set a deposit limit.")
  await prompt.getByRole("link", { name: "Set a deposit limit" }).click()
  await expect(page).toHaveURL(/\/responsible-gambling#limits$/)

  // Free text: a word is refused by the page, an Indian-grouped amount is taken.
  const day = page.getByTestId("limit-deposit-day")
  await page.getByRole("textbox", { name: "New 24-hour deposit limit in rupees" }).fill("one thousand")
  await page.getByRole("button", { name: "Save 24-hour deposit limit" }).click()
  await expect(day).toContainText("Enter an amount in rupees")
  await page.getByRole("textbox", { name: "New 24-hour deposit limit in rupees" }).fill("1,000")
  await page.getByRole("button", { name: "Save 24-hour deposit limit" }).click()
  await expect(toast(page, "success", "Your 24-hour deposit limit of ₹1,000.00 is in force now.")).toBeVisible()
  await expect(page.getByTestId("limit-deposit-day-status")).toContainText("₹1,000.00 in force")

  // A deposit past it is refused with the server's message; nothing is filed.
  await page.goto("/deposit")
  await waitForApp(page)
  await expect(prompt).toContainText("24-hour deposit limit ₹1,000.00: ₹1,000.00 left")
  await depositByUpi(page, "1500")
  await expect(toast(page, "warning", "This deposit would pass your 24-hour deposit limit of ₹1,000.00: you can deposit up to ₹1,000.00 now.")).toBeVisible()
  // In one place: the toast (above the modal), not an alert in the form as well.
  await expect(page.getByTestId("deposit-modal").locator("[data-dialog-body]").getByRole("alert")).toHaveCount(0)
  await page.keyboard.press("Escape")
  await expect(page.getByTestId("deposit-history")).not.toContainText("₹1,500.00")

  // Raising it: pending, not in force; the page says from when it can be confirmed.
  await page.goto("/responsible-gambling#limits")
  await waitForApp(page)
  await page.getByRole("textbox", { name: "New 24-hour deposit limit in rupees" }).fill("5000")
  await page.getByRole("button", { name: "Save 24-hour deposit limit" }).click()
  await expect(toast(page, "success", /Your 24-hour deposit limit stays ₹1,000.00 for now. You can confirm ₹5,000.00 from/)).toBeVisible()
  const pending = page.getByTestId("limit-deposit-day-pending")
  await expect(pending).toContainText("Raising it to ₹5,000.00: not in force yet. You can confirm it from")
  await expect(page.getByRole("button", { name: "Confirm 24-hour deposit limit" })).toHaveCount(0)
  await expect(page.getByTestId("limit-deposit-day-status")).toContainText("₹1,000.00 in force")

  // 24 hours later on the server's clock: the player confirms it, and it is in force.
  await moveServerClock(request, 24 * 3600 + 1)
  await page.reload()
  await waitForApp(page)
  await expect(pending).toContainText("you can confirm it now")
  await page.getByRole("button", { name: "Confirm 24-hour deposit limit" }).click()
  await expect(toast(page, "success", "Your 24-hour deposit limit of ₹5,000.00 is in force now.")).toBeVisible()
  await expect(page.getByTestId("limit-deposit-day-status")).toContainText("₹5,000.00 in force")
  await expect(pending).toHaveCount(0)

  await page.goto("/deposit")
  await waitForApp(page)
  await depositByUpi(page, "1500")
  await expect(toast(page, "success", "Deposit request submitted")).toBeVisible()
})

test("a time-out blocks a bet and still allows a withdrawal", async ({ page, request }) => {
  const player = await createPlayer(request, "Resting Player")
  const admin = await apiLogin(request, "admin")
  const auth = { authorization: `Bearer ${player.token}` }
  expect((await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 1000 } })).status()).toBe(200)
  expect((await request.post("/api/v1/account-details", { headers: auth, data: { type: "upi", accountNumber: "rest@okaxis", accountHolderName: "Resting Player" } })).status()).toBe(200)

  await openSignedIn(page, player.token, "/responsible-gambling#time-out")
  await page.getByLabel("Break for").selectOption({ label: "24 hours" })
  await page.getByRole("button", { name: "Take a break" }).click()
  // It cannot be shortened: the player confirms it first; Escape backs out.
  const confirm = page.getByTestId("confirm-closure")
  await expect(confirm).toContainText("It cannot be shortened or undone.")
  await page.keyboard.press("Escape")
  await expect(confirm).toBeHidden()
  await page.getByRole("button", { name: "Take a break" }).click()
  await confirm.getByRole("button", { name: "Start my break" }).click()
  await expect(toast(page, "success", /You are taking a break until/)).toBeVisible()
  await expect(page.getByTestId("time-out-status")).toContainText("You are taking a break until")

  // A bet is refused with the server's message.
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ leagues: Array<{ events: Array<{ name: string; slugName: string; markets: Array<{ marketType: string; runners: Array<{ name: string }> }> }> }> }>
  const event = sports.flatMap((s) => s.leagues.flatMap((l) => l.events)).find((e) => e.name === "Delhi Capitals v Rajasthan Royals")!
  const runner = event.markets.find((m) => m.marketType === "EXCHANGE")!.runners[0]!
  await page.goto(`/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
  await waitForApp(page)
  await page.getByRole("button", { name: new RegExp(`^Back ${runner.name} at`) }).first().click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("alert")).toContainText("You are taking a break until")
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹0.00")

  // A withdrawal goes through.
  await page.goto("/withdrawal")
  await waitForApp(page)
  const form = page.getByRole("form", { name: "Withdraw" })
  await form.getByRole("textbox", { name: "Amount" }).fill("300")
  await form.getByRole("button", { name: "Withdraw" }).click()
  await expect(toast(page, "success", "Withdrawal requested")).toBeVisible()
  await expect(page.getByTestId("balance-balance")).toHaveText("₹700.00")
})

test("self-exclusion ends the betting session; signed in again, the account is closed and shows no offers", async ({ browser, page, request }) => {
  const player = await createPlayer(request, "Excluding Player")
  await openSignedIn(page, player.token, "/responsible-gambling#self-exclusion")
  await page.getByLabel("Exclude me for").selectOption({ label: "1 year" })
  await page.getByRole("button", { name: "Self-exclude" }).click()
  await page.getByTestId("confirm-closure").getByRole("button", { name: "Exclude me" }).click()
  await expect(toast(page, "success", /Your account is self-excluded until .* You have been signed out\./)).toBeVisible()
  // The session is over here and on the server.
  await expect(page.getByRole("banner").getByRole("button", { name: "Login" })).toBeVisible()
  expect((await request.get("/api/v1/protection", { headers: { authorization: `Bearer ${player.token}` } })).status()).toBe(401)

  // Signing in again still works (to withdraw), but bets are refused.
  const again = await request.post("/identity/user/login", { data: { mobile_no: player.mobileNo, password: player.password } })
  expect(again.status()).toBe(200)
  const token = (await again.json()).meta.token as string
  const state = (await (await request.get("/api/v1/protection", { headers: { authorization: `Bearer ${token}` } })).json()).data
  expect(state.closed.reason).toBe("SelfExcluded")
  // A new tab signed in with the new token (this tab's test set-up holds the old one).
  const next = await page.context().newPage()
  await openSignedIn(next, token, "/responsible-gambling")
  await expect(next.getByTestId("closure")).toContainText("Your account is self-excluded until")
  // No marketing: the home page shows no offer banners to them (a visitor sees them).
  await next.goto("/")
  await waitForApp(next)
  await expect(next.getByTestId("banner-slider")).toHaveCount(0)
  const visitor = await browser.newPage()
  await visitor.goto(new URL("/", next.url()).href)
  await waitForApp(visitor)
  await expect(visitor.getByTestId("banner-slider")).toBeVisible()
  await visitor.close()
})

test("the reality check appears at the interval, holds across a reload, and Continue starts the next one", async ({ page, request }) => {
  const player = await createPlayer(request, "Reminded Player")
  await page.clock.install()
  await openSignedIn(page, player.token, "/responsible-gambling#reality-check")
  // The choice is the server's once it answers.
  await page.getByRole("radio", { name: "Every 15 minutes" }).click()
  await expect(toast(page, "success", "We will remind you every 15 minutes")).toBeVisible()
  await expect(page.getByRole("radio", { name: "Every 15 minutes" })).toBeChecked()
  await expect(page.getByTestId("reality-check")).toHaveCount(0)

  // Fifteen minutes pass on both clocks: the page's timer asks the server, which says it is due.
  await moveServerClock(request, 15 * 60 + 1)
  await page.clock.fastForward("15:01")
  const reminder = page.getByTestId("reality-check")
  await expect(reminder).toBeVisible()
  await expect(reminder.getByRole("heading", { name: "Reality check" })).toBeVisible()
  await expect(reminder.getByTestId("reality-check-time")).toContainText("min")
  await expect(reminder.getByTestId("reality-check-net")).toHaveText("₹0.00")

  // It belongs to the session on the server: a reload (or another page) shows it again.
  await page.goto("/sports")
  await waitForApp(page)
  await expect(reminder).toBeVisible()
  await expect(reminder.getByRole("button", { name: "Continue" })).toBeFocused()
  await reminder.getByRole("button", { name: "Continue" }).click()
  await expect(reminder).toBeHidden()
  await page.reload()
  await waitForApp(page)
  await expect(reminder).toHaveCount(0)
})

test("with real-money deposits closed, the header says the site runs on demo credit and a deposit is refused", async ({ page, request }) => {
  const admin = await apiLogin(request, "admin")
  const switches = (depositsOpen: boolean) =>
    request.put("/api/v1/admin/protection-settings", { headers: { authorization: `Bearer ${admin.token}` }, data: { depositsOpen } }).then((res) => expect(res.status()).toBe(200))
  const player = await createPlayer(request, "Demo Player")
  await switches(false)
  try {
    await openSignedIn(page, player.token, "/deposit")
    await expect(page.getByTestId("demo-credit")).toHaveText("Demo credit only: real-money deposits are closed, and balances are play money.")
    await depositByUpi(page, "500")
    await expect(toast(page, "warning", "Real-money deposits are closed at the moment: Khel runs on demo credit.")).toBeVisible()
  } finally {
    await switches(true)
  }
  await page.reload()
  await waitForApp(page)
  await expect(page.getByTestId("demo-credit")).toHaveCount(0)
})

/** The network drops the next call to `path` (the browser aborts it): the failure the page must handle, the server untouched. */
const dropNextCall = (page: Page, path: string) => page.route(`**${path}`, (route) => route.abort("internetdisconnected"), { times: 1 })

/** Fifteen-minute reminders, chosen on /responsible-gambling. */
const remindEvery15 = async (page: Page) => {
  await page.getByRole("radio", { name: "Every 15 minutes" }).click()
  await expect(toast(page, "success", "We will remind you every 15 minutes")).toBeVisible()
}

/** Fifteen minutes on both clocks (the page's is installed): the reminder shows. */
const reminderDue = async (page: Page, request: APIRequestContext) => {
  await moveServerClock(request, 15 * 60 + 1)
  await page.clock.fastForward("15:01")
  await expect(page.getByTestId("reality-check")).toBeVisible()
  return page.getByTestId("reality-check")
}

test("the activity statement: a failed load says so and Try again loads it; the reminder's View statement opens it again", async ({ page, request }) => {
  const player = await createPlayer(request, "Statement Reader")
  await page.clock.install()
  await dropNextCall(page, "/api/v1/protection/activity")
  await openSignedIn(page, player.token, "/responsible-gambling#activity")
  const section = page.locator("#activity")
  await expect(section).toContainText("The statement could not be loaded.")
  await expect(page.getByTestId("activity-table")).toHaveCount(0)
  await section.getByRole("button", { name: "Try again" }).click()
  await expect(page.getByTestId("activity-table")).toBeVisible()
  await expect(page.getByTestId("activity-chart")).toBeVisible()

  // On another page of the same visit, the reminder's answer the server cannot take leaves it open, saying why.
  await remindEvery15(page)
  await page.getByRole("navigation", { name: "Sections" }).first().getByRole("link", { name: "Sports" }).click()
  await expect(page).toHaveURL(/\/sports/)
  await expect(page.locator("#activity")).toHaveCount(0)
  const reminder = await reminderDue(page, request)
  await dropNextCall(page, "/api/v1/protection/reality-check/continue")
  await reminder.getByRole("button", { name: "Continue" }).click()
  await expect(reminder.getByRole("alert")).toBeVisible()
  await expect(reminder.getByRole("button", { name: "View statement" })).toBeEnabled()

  // View statement answers it and goes to the statement, loaded afresh.
  const loads: Array<string> = []
  page.on("request", (req) => {
    if (req.url().includes("/api/v1/protection/activity")) loads.push(req.url())
  })
  await reminder.getByRole("button", { name: "View statement" }).click()
  await expect(reminder).toBeHidden()
  await expect(page).toHaveURL(/\/responsible-gambling#activity$/)
  await expect(page.getByTestId("activity-table")).toBeVisible()
  expect(loads).toHaveLength(1)
})

test("the reality check's Log out ends the session", async ({ page, request }) => {
  const player = await createPlayer(request, "Leaving Player")
  await page.clock.install()
  await openSignedIn(page, player.token, "/responsible-gambling#reality-check")
  await remindEvery15(page)
  const reminder = await reminderDue(page, request)
  await reminder.getByRole("button", { name: "Log out" }).click()
  await expect(page.getByRole("banner").getByRole("button", { name: "Login" })).toBeVisible()
  await expect(page.getByTestId("reality-check")).toHaveCount(0)
})

test("limits: a failed read offers Try again; a raise waits out its 24 hours on the page's clock, a lower limit or a new raise replaces it, a refused save says so", async ({ page, request }) => {
  const player = await createPlayer(request, "Careful Player")
  await page.clock.install()
  await dropNextCall(page, "/api/v1/protection")
  await openSignedIn(page, player.token, "/responsible-gambling#limits")
  await expect(page.getByText("Your settings could not be loaded.")).toBeVisible()
  await page.getByRole("button", { name: "Try again" }).click()
  const status = page.getByTestId("limit-deposit-day-status")
  await expect(status).toContainText("No limit")

  const box = page.getByRole("textbox", { name: "New 24-hour deposit limit in rupees" })
  const save = async (amount: string, said: string | RegExp) => {
    await box.fill(amount)
    await page.getByRole("button", { name: "Save 24-hour deposit limit" }).click()
    await expect(toast(page, "success", said)).toBeVisible()
  }
  await save("1000", "Your 24-hour deposit limit of ₹1,000.00 is in force now.")
  // A raise waits; a lower limit is in force at once and drops it.
  const pending = page.getByTestId("limit-deposit-day-pending")
  await save("5000", /You can confirm ₹5,000.00 from/)
  await expect(pending).toContainText("Raising it to ₹5,000.00: not in force yet.")
  await save("800", "Your 24-hour deposit limit of ₹800.00 is in force now.")
  await expect(pending).toHaveCount(0)
  await expect(status).toContainText("₹800.00 in force")

  // 24 hours on both clocks: the page offers to confirm it, without a reload.
  await save("2000", /You can confirm ₹2,000.00 from/)
  await moveServerClock(request, 24 * 3600 + 1)
  await page.clock.fastForward("24:00:01")
  await expect(pending).toContainText("Raising it to ₹2,000.00: you can confirm it now.")
  await expect(page.getByRole("button", { name: "Confirm 24-hour deposit limit" })).toBeVisible()
  // A new raise starts its own 24 hours instead.
  await save("3000", /You can confirm ₹3,000.00 from/)
  await expect(pending).toContainText("Raising it to ₹3,000.00: not in force yet.")
  await expect(page.getByRole("button", { name: "Confirm 24-hour deposit limit" })).toHaveCount(0)

  // Removing one is a change that waits too.
  await page.getByRole("button", { name: "Remove 24-hour deposit limit" }).click()
  await expect(pending).toContainText("Removing this limit: not in force yet.")
  await expect(status).toContainText("₹800.00 in force")

  // A save the network loses: its section says so, and the limit is as it was.
  await dropNextCall(page, "/api/v1/protection/limits")
  await box.fill("100")
  await page.getByRole("button", { name: "Save 24-hour deposit limit" }).click()
  await expect(page.locator("#limits").getByRole("alert")).toBeVisible()
  await expect(status).toContainText("₹800.00 in force")
})
