import { type APIRequestContext, expect, test } from "@playwright/test"
import { openDesk } from "./desk-support.ts"
import { fundedPlayer, openSignedIn } from "./support.ts"

/**
 * Markets and risk on the desk in Chromium: the house's book of a market a
 * player backed big, a settlement above the liability threshold asked for by
 * one staff member and approved by another, and the player's statement
 * showing it.
 */
interface Market {
  marketId: string
  name: string
  marketType: "EXCHANGE" | "BOOKMAKER" | "FANCY"
  runners: Array<{ selectionId: string; name: string }>
}
interface Event {
  name: string
  inPlay: boolean
  markets: Array<Market>
}

/** A Match Odds market of an event not started, from the end of the catalogue (the other specs bet on named IPL matches). */
const quietMarket = async (request: APIRequestContext) => {
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ slugName: string; leagues: Array<{ events: Array<Event> }> }>
  const events = sports.filter((s) => s.slugName !== "cricket").flatMap((s) => s.leagues.flatMap((l) => l.events)).filter((e) => !e.inPlay).reverse()
  const event = events.find((e) => e.markets.some((m) => m.marketType === "EXCHANGE" && m.name === "Match Odds"))!
  return { event, market: event.markets.find((m) => m.marketType === "EXCHANGE" && m.name === "Match Odds")! }
}

test("a market above the threshold is settled with a second approver, and the player's statement shows it", async ({ page, browser, request }) => {
  // ₹55,000 backed at 2.00: the house stands to lose ₹55,000, above the default ₹50,000 of four eyes.
  const player = await fundedPlayer(request, 60_000, "Risk Player")
  const { event, market } = await quietMarket(request)
  const [runner, other] = market.runners
  const auth = (token: string) => ({ authorization: `Bearer ${token}` })
  const priced = await request.post("/api/v1/admin/market-price", {
    headers: auth(player.admin),
    data: { marketId: market.marketId, selectionId: runner!.selectionId, back: { price: 2, size: 100_000 }, lay: { price: 2.02, size: 100_000 }, status: "OPEN" }
  })
  expect(priced.status()).toBe(200)
  const placed = await request.post("/api/v1/bet-sport", {
    headers: auth(player.token),
    data: { marketId: market.marketId, selectionId: runner!.selectionId, selectionType: "back", odds: 2, stake: 55_000 }
  })
  expect(placed.status()).toBe(200)

  // Support sees the book but no button that would change it.
  const support = await openDesk(browser, "support", `/admin/markets?market=${market.marketId}`)
  const supportPane = support.getByRole("complementary", { name: "Market" })
  await expect(supportPane.getByRole("table", { name: "The house's book by runner" })).toContainText("−₹55,000.00")
  await expect(supportPane.getByRole("button", { name: "Settle" })).toHaveCount(0)
  await expect(supportPane.getByRole("button", { name: "Suspend" })).toHaveCount(0)
  await support.context().close()

  // Admin asks to settle it: above the threshold it waits for a second approver.
  const admin = await openDesk(browser, "admin", `/admin/markets?market=${market.marketId}`)
  const pane = admin.getByRole("complementary", { name: "Market" })
  const book = pane.getByRole("table", { name: "The house's book by runner" })
  await expect(book.getByRole("row", { name: new RegExp(runner!.name) })).toContainText("−₹55,000.00")
  await expect(book.getByRole("row", { name: new RegExp(other!.name) })).toContainText("₹55,000.00")
  await expect(pane).toContainText("Liability₹55,000.00")
  await pane.getByRole("form", { name: "Settle" }).getByLabel("Winner").selectOption(runner!.selectionId)
  await pane.getByRole("button", { name: "Settle" }).click()
  await expect(pane.getByRole("status")).toContainText(`admin asked: Settle: ${runner!.selectionId}`)
  await expect(pane.getByRole("button", { name: "Withdraw" })).toBeVisible()
  const waiting = admin.getByRole("table", { name: "Waiting for a second approver" })
  await expect(waiting).toContainText("admin")

  // The director approves it from their own desk; the admin's desk hears it.
  const director = await openDesk(browser, "director", "/admin/markets")
  const request_ = director.getByRole("table", { name: "Waiting for a second approver" }).getByRole("row", { name: new RegExp(market.marketId) })
  await request_.getByRole("button", { name: "Approve" }).click()
  await expect(director.getByRole("table", { name: "Waiting for a second approver" })).toContainText("Nothing waiting.")
  await expect(waiting).toContainText("Nothing waiting.")
  await director.context().close()
  await admin.context().close()

  // The player won ₹55,000: stake and winnings back, in the statement.
  await openSignedIn(page, player.token, "/statements")
  const won = page.getByTestId("statement").getByRole("row").filter({ hasText: "Bet won" })
  await expect(won).toContainText(`${event.name} · Match Odds`)
  await expect(won).toContainText("1,10,000.00")
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,15,000.00")
})

test("Today: the figures of today, 7 and 30 days beside their charts; a DIRECTOR lands on it", async ({ browser }) => {
  const director = await openDesk(browser, "director", "/admin")
  await expect(director).toHaveURL(/\/admin\/today$/)
  const figures = director.getByRole("table", { name: "Figures" })
  for (const line of ["Deposits", "Net cash", "GGR, sports", "GGR, casino", "Active players", "Sign-ups"]) await expect(figures.getByRole("row", { name: new RegExp(`^${line}`) })).toBeVisible()
  await expect(director.locator(".chart canvas")).toHaveCount(3)
  await director.getByRole("button", { name: "30 days" }).click()
  await expect(director.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true")
  await expect(director.locator(".chart canvas")).toHaveCount(3)
  await director.context().close()
})
