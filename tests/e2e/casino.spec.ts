import { expect, type Page, test } from "./coverage.ts"
import { apiLogin, createPlayer, fundedPlayer, openSignedIn, waitForApp, waitForLoginReload } from "./support.ts"

const dialog = (page: Page) => page.getByRole("dialog")
const cards = (page: Page) => page.getByTestId("game-card")
const toast = (page: Page, text: string) => page.getByTestId("toast-warning").filter({ hasText: text })
/** A statement row by its plain title ("Casino bet") and what it was for (the game). */
const statementRow = (page: Page, title: string, detail: string) =>
  page.getByRole("row").filter({ hasText: title }).filter({ hasText: detail }).first()

test("browse the lobbies and their categories; artwork loads lazily below the fold", async ({ page }) => {
  await page.goto("/live-casino")
  await waitForApp(page)
  await expect(page.getByRole("heading", { name: "Live Casino" })).toBeVisible()
  const strip = page.getByRole("group", { name: "Game categories" })
  await expect(strip.getByRole("button").first()).toHaveText("All Category")
  await expect(strip.getByRole("button", { name: "All Category" })).toHaveAttribute("aria-pressed", "true")
  const all = await cards(page).count()
  expect(all).toBeGreaterThan(20)

  await strip.getByRole("button", { name: "Roulette" }).click()
  await expect(strip.getByRole("button", { name: "Roulette" })).toHaveAttribute("aria-pressed", "true")
  await expect(cards(page)).toHaveCount(4)
  for (const text of await cards(page).allInnerTexts()) expect(text).toMatch(/Roulette/)
  await strip.getByRole("button", { name: "Other" }).click()
  await expect(page.getByRole("button", { name: "Play Lightning Lotto by Evolution" })).toBeVisible()
  await strip.getByRole("button", { name: "All Category" }).click()
  await expect(cards(page)).toHaveCount(all)

  // The first cards' artwork is fetched at once; the rest wait until they scroll into view.
  const first = cards(page).first().locator("img")
  await expect(first).toHaveAttribute("loading", "eager")
  await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320)
  await expect(cards(page).last().locator("img")).toHaveAttribute("loading", "lazy")
  await expect(cards(page).first()).toContainText("Khel Originals")

  await page.getByRole("navigation", { name: "Sections" }).first().getByRole("link", { name: "SA Gaming" }).click()
  await expect(page.getByRole("heading", { name: "SA Gaming" })).toBeVisible()
  await expect(page.getByRole("button", { name: "Play Baccarat C01 by SA Gaming" })).toBeVisible()
  await page.goto("/slots")
  await expect(page.getByRole("button", { name: "Play Lucky Lotus by Khel Originals" })).toBeVisible()
  await expect(page.getByRole("group", { name: "Game categories" }).getByRole("button", { name: "Megaways" })).toBeVisible()
})

test("a visitor is asked to log in; a player launches a table, plays a round, returns, and finds it in casino bets, the statement and profit and loss", async ({ page, request }) => {
  const player = await createPlayer(request, "Casino Player")
  const admin = await apiLogin(request, "admin")
  const funded = await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 5000 } })
  expect(funded.status()).toBe(200)

  // A visitor: the launch notice, and no game.
  await page.goto("/live-casino")
  await waitForApp(page)
  await page.getByRole("button", { name: "Play Khel Dragon Tiger by Khel Originals" }).click()
  await expect(toast(page, "Please Login to Play")).toContainText("Hold up! You need to log in to play!")
  await expect(page).toHaveURL(/\/live-casino$/)

  // Log in.
  await page.getByRole("banner").getByRole("button", { name: "Login" }).click()
  await dialog(page).getByRole("tab", { name: "Username" }).click()
  await dialog(page).getByLabel("Username").fill(player.user.username)
  await dialog(page).getByLabel("Password", { exact: true }).fill(player.password)
  await dialog(page).getByRole("button", { name: "Login", exact: true }).click()
  await waitForLoginReload(page)
  await expect(page.getByTestId("balance-balance")).toHaveText("₹5,000.00")

  // A partner's table that is not connected: Game Not Available.
  await page.goto("/live-casino")
  await waitForApp(page)
  await page.getByRole("button", { name: "Play Lightning Roulette by Evolution" }).click()
  await expect(toast(page, "Game Not Available")).toContainText("This game is currently unavailable. Check back soon!")
  await expect(page).toHaveURL(/\/live-casino$/)

  // The demo table opens in the same window.
  await page.getByRole("button", { name: "Play Khel Dragon Tiger by Khel Originals" }).click()
  await page.waitForURL(/\/games\/khel\/dragon-tiger\?token=/)
  await expect(page.getByRole("heading", { name: "Dragon Tiger" })).toBeVisible()
  await expect(page.locator("#balance")).toHaveText("₹5,000.00")
  const commit = await page.locator("#commit").textContent()
  expect(commit).toMatch(/^[0-9a-f]{64}$/)

  // Bet ₹1,000 on Dragon and ₹100 on the tie, and deal.
  const chips = page.getByRole("group", { name: "Chip value (₹)" })
  await chips.getByText("1,000", { exact: true }).click()
  await expect(chips.getByRole("radio", { name: "1,000" })).toBeChecked()
  await page.getByRole("button", { name: /^Dragon/ }).click()
  await chips.getByText("100", { exact: true }).click()
  await page.getByRole("button", { name: /^Tie/ }).click()
  await expect(page.locator("#total")).toHaveText("₹1,100")
  await page.getByRole("button", { name: "Deal" }).click()
  await expect(page.locator("#result")).not.toBeEmpty()
  const result = (await page.locator("#result").textContent())!
  const returned = /You get ₹([\d,]+\.\d{2})/.exec(result)?.[1]
  const win = returned ? Number(returned.replace(/,/g, "")) : 0
  const balanceAfter = 5000 - 1100 + win
  const shown = `₹${balanceAfter.toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
  await expect(page.locator("#balance")).toHaveText(shown)

  // The seed shown afterwards hashes to the commitment shown before, and gives this outcome.
  await expect(page.locator("#last-commit")).toHaveText(commit!)
  await page.getByRole("button", { name: "Verify this round" }).click()
  await expect(page.locator("#verdict")).toHaveText(/^Verified/)
  await expect(page.locator("#history tr")).toHaveCount(1)

  // Back to the lobby: the header balance and the round are there.
  await page.getByRole("link", { name: /Back to lobby/ }).click()
  await expect(page).toHaveURL(/\/live-casino$/)
  await waitForApp(page)
  await expect(page.getByTestId("balance-balance")).toHaveText(shown)
  const bets = page.getByTestId("casino-bets")
  await expect(bets).toContainText("Khel Dragon Tiger")
  await expect(bets.locator("tbody tr")).toHaveCount(1)
  await expect(bets.locator("tbody tr").first()).toContainText("1,100.00")
  await expect(bets.locator("tbody tr").first()).toContainText("Settled")

  // The statement and profit and loss show the bet (and the win, if any).
  await page.goto("/statements")
  await expect(statementRow(page, "Casino bet", "Khel Dragon Tiger")).toBeVisible()
  if (win > 0) await expect(statementRow(page, "Casino win", "Khel Dragon Tiger")).toBeVisible()
  await page.goto("/profit-loss")
  await expect(statementRow(page, "Casino bet", "Khel Dragon Tiger")).toBeVisible()
  const token = await page.evaluate(() => localStorage.getItem("token"))
  const statement = (await (await request.get("/api/v1/account-statement", { headers: { authorization: `Bearer ${token}` } })).json()).data
  const rows = statement.rows as Array<{ kind: string; description: string; debit: number; credit: number }>
  expect(rows.find((row) => row.kind === "casino_debit")).toMatchObject({ debit: 1100, description: expect.stringContaining("Khel Dragon Tiger") })
  if (win > 0) expect(rows.find((row) => row.kind === "casino_credit")).toMatchObject({ credit: win })
  expect(statement.closingBalance).toBe(balanceAfter)
})

test("the Top Casino panel on the home page slides every 2.5 s and launches like the lobby", async ({ page }) => {
  await page.goto("/")
  await waitForApp(page)
  const panel = page.getByRole("region", { name: "Top Casino" })
  await expect(panel).toBeVisible()
  await expect(panel.getByTestId("casino-slider")).toHaveAttribute("data-autoplay", "2500")
  // Hovering pauses the autoplay, so the card on show stays put for the click.
  await panel.getByTestId("casino-slider").hover()
  await panel.locator(".swiper-slide-active").getByTestId("game-card").click()
  await expect(toast(page, "Please Login to Play")).toBeVisible()
})

test("the right sidebar of an event page carries the casino slider, every 3 s", async ({ page, request }) => {
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<{ slugName: string }> }> }>
  const sport = sports.find((s) => s.slugName === "cricket")!
  const league = sport.leagues[0]!
  await page.goto(`/event?sport=${sport.slugName}&league=${league.slugName}&event=${league.events[0]!.slugName}`)
  await waitForApp(page)
  const panel = page.getByRole("region", { name: "Casino" })
  await expect(panel.getByTestId("casino-slider")).toHaveAttribute("data-autoplay", "3000")
  await expect(panel.getByTestId("game-card").first()).toBeVisible()
})

test("a lobby whose games the network loses offers Try again; a lost launch leaves the player in the lobby", async ({ page, request }) => {
  const player = await fundedPlayer(request, 1000, "Lobby Player")
  // The browser aborts the first call of each: failures the lobby must handle, the server untouched.
  await page.route(/\/api\/v1\/casino-games(\?|$)/, (route) => route.abort("internetdisconnected"), { times: 1 })
  await page.route("**/api/v1/live-casino-dcs/**", (route) => route.abort("internetdisconnected"), { times: 1 })
  await openSignedIn(page, player.token, "/live-casino")
  await expect(page.getByText("The games could not be loaded.")).toBeVisible()
  await page.getByRole("button", { name: "Try again" }).click()
  const play = page.getByRole("button", { name: "Play Khel Dragon Tiger by Khel Originals" })
  await expect(play).toBeVisible()

  await play.click()
  await expect(page.getByTestId("toast-error")).toBeVisible()
  await expect(page).toHaveURL(/\/live-casino$/)
  await expect(play).not.toHaveAttribute("aria-busy", "true")
  // The next launch goes through.
  await play.click()
  await page.waitForURL(/\/games\/khel\/dragon-tiger\?token=/)
  await expect(page.getByRole("heading", { name: "Dragon Tiger" })).toBeVisible()
  // Back in the lobby (the game's page keeps no record of the lobby's flow).
  await page.getByRole("link", { name: /Back to lobby/ }).click()
  await expect(page).toHaveURL(/\/live-casino$/)
  await waitForApp(page)
})
