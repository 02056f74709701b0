import { type APIRequestContext, expect, type Page, test } from "./coverage.ts"
import { ladderDown, ladderUp } from "../../src/domain/ladder.ts"
import { createPlayer, fundedPlayer, openSignedIn, waitForApp } from "./support.ts"

/**
 * Sports betting in Chromium against the real server with its odds
 * simulator running. Markets a test bets on are priced by hand first (the
 * operator's manual price), so the simulator leaves them where the test
 * expects them.
 */

interface Market {
  _id: string
  marketId: string
  name: string
  marketType: "EXCHANGE" | "BOOKMAKER" | "FANCY"
  runners: Array<{ selectionId: string; name: string }>
}
interface Event {
  _id: string
  name: string
  slugName: string
  inPlay: boolean
  markets: Array<Market>
}

const findEvent = async (request: APIRequestContext, name: string) => {
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ leagues: Array<{ events: Array<Event> }> }>
  return sports.flatMap((s) => s.leagues.flatMap((l) => l.events)).find((e) => e.name === name)!
}

const price = (request: APIRequestContext, admin: string, data: Record<string, unknown>) =>
  request.post("/api/v1/admin/market-price", { headers: { authorization: `Bearer ${admin}` }, data }).then((res) => expect(res.status()).toBe(200))

/** Places the slip's bet and sees it matched whole: `outcome` is what the slip says ("Matched ₹300.00 at 52"). */
const place = async (page: Page, stake: string, outcome: string) => {
  const slip = page.getByTestId("bet-slip")
  await expect(slip).toBeVisible()
  await slip.getByLabel("Stake (₹)").fill(stake)
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText(outcome)
  await expect(slip).toBeHidden()
}

const FIXTURE = "Royal Challengers Bengaluru v Kolkata Knight Riders"

test("search an event, back and lay on exchange, bookmaker and fancy; exposure and My Bets follow", async ({ page, request }) => {
  const player = await fundedPlayer(request, 5000)
  const event = await findEvent(request, FIXTURE)
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const bookmaker = event.markets.find((m) => m.marketType === "BOOKMAKER")!
  const fancy = event.markets.find((m) => m.name.startsWith("6 Over Runs"))!
  const [home, away] = exchange.runners
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: home!.selectionId, back: { price: 2.5, size: 5000 }, lay: { price: 2.52, size: 5000 }, status: "OPEN" })
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: away!.selectionId, back: { price: 1.66, size: 5000 }, lay: { price: 1.68, size: 5000 } })
  await price(request, player.admin, { marketId: bookmaker.marketId, selectionId: bookmaker.runners[1]!.selectionId, back: { price: 60, size: 5000 }, lay: { price: 68, size: 5000 }, status: "OPEN" })
  await price(request, player.admin, { marketId: fancy.marketId, back: { price: 52, size: 100 }, lay: { price: 51, size: 100 }, status: "OPEN" })

  // The entry's stylesheet travels inside index.html: neither the page nor a chunk loaded later (the slip's calls,
  // which list it among their dependencies) may fetch its file.
  const entryStylesheets: Array<string> = []
  page.on("request", (r) => {
    if (/\/assets\/index-[\w-]+\.css$/.test(new URL(r.url()).pathname)) entryStylesheets.push(r.url())
  })
  await openSignedIn(page, player.token, "/")
  // Find it in the sidebar: the search ignores case and spaces.
  await page.getByRole("searchbox").first().fill("kolkata knight")
  await page.getByRole("link", { name: new RegExp(FIXTURE) }).first().click()
  await expect(page.getByRole("heading", { level: 1, name: FIXTURE })).toBeVisible()
  // Its fairness: the commitment to the seed its results are drawn from, published before the start.
  const committed = (await (await request.get(`/api/v1/event-fairness?event_id=${event._id}`)).json()).data
  expect(committed.seed).toBeNull()
  await page.getByText("Fairness: commitment").click()
  await expect(page.getByTestId("fairness-commitment")).toHaveText(committed.commitment)
  await expect(page.getByTestId("fairness")).toContainText("seed revealed after settlement")
  // Each market's rules behind its "i", closed with Escape.
  await page.getByRole("button", { name: "Rules: Match Odds" }).click()
  const rules = page.getByRole("dialog", { name: "Rules: Match Odds" })
  await expect(rules).toContainText("tied, every bet is void")
  await page.keyboard.press("Escape")
  await expect(rules).toBeHidden()
  await page.getByRole("button", { name: "Rules: Fancy" }).click()
  await expect(page.getByRole("dialog", { name: "Rules: Fancy" })).toContainText("Rain")
  await page.keyboard.press("Escape")

  // From the md breakpoint up, a runner shows three prices a side (a phone only the best: phone.mobile.spec.ts).
  const homeCells = page.getByTestId(`market-${exchange.marketId}`).getByRole("button", { name: new RegExp(`^(Back|Lay) ${home!.name}( at|:)`) })
  await expect(homeCells).toHaveCount(6)
  // Exchange back: profit (odds - 1) x stake as the stake is typed, and every runner's P/L.
  await page.getByRole("button", { name: `Back ${home!.name} at 2.50` }).click()
  const slip = page.getByTestId("bet-slip")
  // The stake takes the focus once the slip has painted: the player can type at once.
  await expect(slip.getByLabel("Stake (₹)")).toBeFocused()
  await page.keyboard.type("200")
  await expect(slip.getByTestId("slip-profit")).toHaveText("₹300.00")
  // Money in the slip is grouped the Indian way, as in the header: the figures, the runners' P/L and the hints.
  await slip.getByLabel("Stake (₹)").fill("600000")
  await expect(slip.getByTestId("slip-profit")).toHaveText("₹9,00,000.00")
  await expect(slip.getByRole("table", { name: "Projected profit and loss" })).toContainText("9,00,000.00")
  await expect(slip.getByText("Max stake ₹5,00,000.00")).toBeVisible()
  await slip.getByLabel("Stake (₹)").fill("200")
  await expect(slip.getByRole("table", { name: "Projected profit and loss" })).toContainText("300.00")
  await expect(slip.getByRole("table", { name: "Projected profit and loss" })).toContainText("-200.00")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Matched ₹200.00 at 2.50")
  // Placed, the slip's "Now" is the position with the bet in it, as the runners show it; nothing more is proposed.
  const position = slip.getByRole("table", { name: "Projected profit and loss" })
  await expect(position.getByRole("columnheader")).toHaveText(["If this wins", "Now"])
  await expect(position.getByRole("row")).toHaveText(["If this winsNow", `${home!.name}300.00`, `${away!.name}-200.00`])
  await expect(page.getByTestId(`market-${exchange.marketId}`).getByTestId("runner-pl")).toHaveText(["300.00", "-200.00"])
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹200.00")
  expect(entryStylesheets).toEqual([])

  // Exchange lay of the other side: liability (odds - 1) x stake.
  await page.getByRole("button", { name: `Lay ${away!.name} at 1.68` }).click()
  await slip.getByLabel("Stake (₹)").fill("100")
  await expect(slip.getByTestId("slip-liability")).toHaveText("₹68.00")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Matched ₹100.00 at 1.68")
  // If the home side wins: +300 + 100; if the away side wins: -200 - 68. The worst case is held.
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹268.00")

  // Bookmaker back: odds / 100 x stake, from a chip.
  await page.getByRole("button", { name: `Back ${bookmaker.runners[1]!.name} at 60` }).click()
  await slip.getByRole("button", { name: "1,000" }).click()
  await expect(slip.getByTestId("slip-profit")).toHaveText("₹600.00")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Matched ₹1,000.00 at 60")

  // Fancy "Yes" at 52 for size 100.
  await page.getByRole("button", { name: `Yes ${fancy.name} at 52` }).click()
  await place(page, "300", "Matched ₹300.00 at 52")

  // The sidebar's My Bets lists all four, newest first, each tagged Back or Lay (the fancy "Yes" is a Back).
  const sidebar = page.getByRole("complementary", { name: "Live score and my bets" })
  await expect(sidebar.getByTestId("bet-row")).toHaveCount(4)
  await expect(sidebar.getByTestId("bet-row").first()).toContainText(`Back${fancy.name}`)
  await expect(sidebar.getByTestId("bet-row").nth(1)).toContainText(`Back${bookmaker.runners[1]!.name}`)
  await expect(sidebar.getByTestId("bet-row").nth(2)).toContainText(`Lay${away!.name}`)
  // 268 on the match odds, 1,000 on the bookmaker, 300 on the fancy.
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹1,568.00")
  await expect(page.getByTestId("fancy-exposure")).toHaveText("-300.00")
  // Exchange and bookmaker positions can be cashed out; a fancy line says it cannot (its Yes and No lines differ).
  await expect(page.getByRole("button", { name: /^Cash out Match Odds: / })).toBeVisible()
  await expect(page.getByRole("button", { name: new RegExp(`^Cash out ${bookmaker.name}: `) })).toBeVisible()
  await expect(page.getByTestId(`market-${fancy.marketId}`)).toContainText("Cash out is not available on fancy markets")
  // The fancy book: each result from the line - 5 to the line + 5.
  await page.getByTestId("fancy-exposure").click()
  const book = page.getByRole("table", { name: `${fancy.name} book` })
  await expect(book.getByRole("row")).toHaveCount(12)
  await expect(book.getByRole("row").nth(1)).toContainText("47")
  await expect(book.getByRole("row").nth(5)).toContainText("-300.00")
  await expect(book.getByRole("row").nth(6)).toContainText("52")
  await expect(book.getByRole("row").nth(6)).toContainText("300.00")

  // My Bets from the profile menu: grouped by event, the first group open, linking to the event.
  await page.getByRole("button", { name: /Account menu/ }).click()
  await page.getByRole("menuitem", { name: "My Bets" }).click()
  const modal = page.getByRole("dialog", { name: "My Bets" })
  await expect(modal.getByTestId("bet-group")).toHaveCount(1)
  await expect(modal.getByTestId("bet-group").first()).toHaveAttribute("open", "")
  await expect(modal.getByTestId("bet-row")).toHaveCount(4)
  for (const column of ["Selection", "Odds", "Stake", "P/L", "Market", "Created at"]) await expect(modal.getByRole("columnheader", { name: column })).toBeVisible()
  // Created at as SPEC section 9 writes dates: Today, Tomorrow or dd MMM, with HH:mm (the bets were placed just now).
  await expect(modal.getByTestId("bet-row").first().getByRole("cell").last()).toHaveText(/^Today, \d{2}:\d{2}$/)
  await expect(modal.getByRole("link", { name: `Open ${FIXTURE}` })).toHaveAttribute("href", new RegExp(`/event\\?sport=cricket&league=indian-premier-league&event=${event.slugName}`))
  await page.keyboard.press("Escape")
  await expect(modal).toBeHidden()
})

test("an exchange price that moved waits for the market at the price asked; a bookmaker rate that moved is refused and offered", async ({ page, request }) => {
  const player = await fundedPlayer(request, 2000)
  const event = await findEvent(request, "Delhi Capitals v Rajasthan Royals")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const bookmaker = event.markets.find((m) => m.marketType === "BOOKMAKER")!
  const runner = exchange.runners[0]!
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 3, size: 5000 }, lay: { price: 3.05, size: 5000 }, status: "OPEN" })
  // The favourite's rate, in line with the exchange's 3.00 on the other side (one price model per event).
  const favourite = bookmaker.runners[1]!
  await price(request, player.admin, { marketId: bookmaker.marketId, selectionId: favourite.selectionId, back: { price: 48, size: 5000 }, status: "OPEN" })
  await openSignedIn(page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
  await page.getByRole("button", { name: `Back ${runner.name} at 3.00` }).click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("500")
  // The price drops before the player confirms: the bet is taken, waiting at 3.00, its stake held.
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 2.8, size: 5000 } })
  await expect(page.getByRole("button", { name: `Back ${runner.name} at 2.80` })).toBeVisible()
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Waiting at 3.00")
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹500.00")
  // My Bets shows it apart, unmatched, with Cancel.
  const sidebar = page.getByRole("complementary", { name: "Live score and my bets" })
  const unmatched = sidebar.getByTestId("unmatched-row")
  await expect(unmatched).toHaveCount(1)
  await expect(unmatched).toContainText(`Back${runner.name}3.00500.00`)
  await expect(sidebar.getByTestId("bet-row")).toHaveCount(0)
  // The market comes back to 3.00: the bet is matched there, the player is told at once, and My Bets follows.
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 3, size: 5000 } })
  const toasts = page.getByTestId("toasts")
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: Matched ₹500.00 at 3.00` })).toBeVisible()
  await expect(unmatched).toHaveCount(0)
  await expect(sidebar.getByTestId("bet-row")).toContainText(`Back${runner.name}3.00500.00`)
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹500.00")
  await toasts.getByRole("button", { name: "Dismiss" }).click()

  // A bet above the market waits; it can be moved a tick, and Cancel gives its stake back.
  await page.getByRole("button", { name: `Back ${runner.name} at 3.00` }).click()
  await slip.getByRole("textbox", { name: "Odds" }).fill("3.50")
  await slip.getByLabel("Stake (₹)").fill("200")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Waiting at 3.50")
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹700.00")
  // A tick down (3.50 to 3.45) moves what waits there: still above the market, it waits at its new price.
  await unmatched.getByRole("button", { name: `Move ₹200.00 unmatched on ${runner.name} to 3.45` }).click()
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: Waiting at 3.45` })).toBeVisible()
  await expect(unmatched).toContainText(`Back${runner.name}3.45200.00`)
  await toasts.getByRole("button", { name: "Dismiss" }).click()
  await unmatched.getByRole("button", { name: `Cancel ₹200.00 unmatched on ${runner.name} at 3.45` }).click()
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: ₹200.00 cancelled` })).toBeVisible()
  await expect(unmatched).toHaveCount(0)
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹500.00")
  await toasts.getByRole("button", { name: "Dismiss" }).click()

  // A bookmaker's rate is fixed: moved before the bet, it is refused, and the slip offers the new one.
  await page.getByRole("button", { name: `Back ${favourite.name} at 48` }).click()
  await slip.getByLabel("Stake (₹)").fill("100")
  await price(request, player.admin, { marketId: bookmaker.marketId, selectionId: favourite.selectionId, back: { price: 45, size: 5000 } })
  await expect(page.getByRole("button", { name: `Back ${favourite.name} at 45` })).toBeVisible()
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("alert")).toHaveText("Odds changed. Please check the new price and place your bet again.")
  // The refusal shows once, in the slip: no toast repeats it (the call's answer came before the slip showed it).
  await expect(page.getByTestId("toasts").getByRole("alert").or(page.getByTestId("toasts").getByRole("status"))).toHaveCount(0)
  await expect(slip.getByRole("textbox", { name: "Rate" })).toHaveValue("45")
  await slip.getByRole("button", { name: "Place Again" }).click()
  await expect(slip.getByRole("status")).toHaveText("Matched ₹100.00 at 45")
  await expect(page.getByTestId("toasts").getByRole("status")).toHaveCount(0)
  // Each market holds its own worst case: 500 on the exchange, 100 on the bookmaker.
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹600.00")
})

test("one-click betting: turned on at the stake typed, a click on a price places it; turned off, a click opens the slip", async ({ page, request }) => {
  const player = await fundedPlayer(request, 2000)
  const event = await findEvent(request, "Gujarat Titans v Lucknow Super Giants")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" })
  await openSignedIn(page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
  const slip = page.getByTestId("bet-slip")
  const toasts = page.getByTestId("toasts")
  await page.getByRole("button", { name: `Back ${runner.name} at 2.00` }).click()
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("checkbox", { name: "One-click betting at this stake" }).check()
  await expect(toasts.getByRole("status").filter({ hasText: "One-click betting is on: a click on a price places ₹100.00" })).toBeVisible()
  await slip.getByRole("button", { name: "Close bet slip" }).click()

  // One click: the bet is placed with the chosen stake, and the outcome is told.
  await page.getByRole("button", { name: `Back ${runner.name} at 2.00` }).click()
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: Matched ₹100.00 at 2.00` })).toBeVisible()
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹100.00")

  // Off again, from the event page: a click opens the slip and places nothing.
  await expect(slip).toBeHidden()
  await expect(page.getByRole("note")).toHaveText(/One-click betting is on: a click on a price places ₹100.00/)
  await page.getByRole("button", { name: "Turn off one-click betting" }).click()
  await expect(toasts.getByRole("status").filter({ hasText: "One-click betting is off" })).toBeVisible()
  await page.getByRole("button", { name: `Back ${runner.name} at 2.00` }).click()
  await expect(slip.getByLabel("Stake (₹)")).toHaveValue("")
  await expect(slip.getByRole("button", { name: "Place Bet" })).toBeEnabled({ enabled: false })
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹100.00")
})

test("a settled winning bet pays out and shows in the statement and profit and loss", async ({ page, request }) => {
  const player = await fundedPlayer(request, 1000)
  const event = await findEvent(request, "Sunrisers Hyderabad v Punjab Kings")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[1]!
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" })
  await openSignedIn(page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
  await page.getByRole("button", { name: `Back ${runner.name} at 2.00` }).click()
  await place(page, "400", "Matched ₹400.00 at 2.00")
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹400.00")

  // The operator posts the result.
  const settled = await request.post("/api/v1/admin/settle-market", {
    headers: { authorization: `Bearer ${player.admin}` },
    data: { marketId: exchange.marketId, result: runner.selectionId }
  })
  expect(settled.status()).toBe(200)
  // The header follows over the player's socket: stake back plus 400 won.
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹0.00")
  await expect(page.getByTestId("balance-balance")).toHaveText("₹1,400.00")
  const sidebar = page.getByRole("complementary", { name: "Live score and my bets" })
  await expect(sidebar.getByText("No Data Available")).toBeVisible()
  await page.getByRole("button", { name: /Account menu/ }).click()
  await page.getByRole("menuitem", { name: "My Bets" }).click()
  await expect(page.getByRole("dialog", { name: "My Bets" })).toContainText("No Data Available")
  await page.keyboard.press("Escape")

  // The statement lists the bet placed and the bet won, in plain words; profit and loss the result.
  const settlement = `${event.name} · Match Odds`
  await page.goto("/statements")
  const rows = page.getByTestId("statement").getByRole("row")
  await expect(rows.filter({ hasText: "Bet won" })).toContainText(settlement)
  await expect(rows.filter({ hasText: "Bet placed" })).toContainText(`${runner.name}, Match Odds`)
  await expect(page.getByTestId("statement")).not.toContainText("bet.")
  await page.goto("/profit-loss")
  await expect(page.getByTestId("profit-loss").getByRole("row").filter({ hasText: "Bet won" })).toContainText(settlement)
  await expect(page.getByTestId("pl-total")).toContainText("400.00")

  const auth = { authorization: `Bearer ${player.token}` }
  const statement = (await (await request.get("/api/v1/account-statement", { headers: auth })).json()).data
  // On the main balance: the stake held (-400), then stake and winnings back (+800).
  const won = statement.rows.find((row: { title: string }) => row.title === "Bet won")
  expect(won).toMatchObject({ kind: "bet.settle", description: settlement, amount: 800 })
  const results = (await (await request.get("/api/v1/result-transaction", { headers: auth })).json()).data
  expect(results.totals.net).toBe(400)
})

test("in play, a bet whose price moved during the delay waits instead of being refused, then matches; another is cancelled", async ({ page, request }) => {
  const player = await fundedPlayer(request, 2000)
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<Event> }> }>
  const cricket = sports.find((s) => s.slugName === "cricket")!
  const league = cricket.leagues.find((l) => l.events.some((e) => e.inPlay))!
  const live = league.events.find((e) => e.inPlay)!
  const exchange = live.markets.find((m) => m.name === "Match Odds")!
  // The runner whose back is the longer price: held where the model has it (a pin elsewhere could contradict the
  // event's other markets), then moved a tick against the backer while the bet waits out the in-play delay.
  const odds = (await (await request.get(`/api/v1/event-odds?event_id=${live._id}`)).json()).data.markets.find((m: { marketId: string }) => m.marketId === exchange.marketId)
  const runners = odds.runners as Array<{ selectionId: string; back: Array<{ price: number }>; lay: Array<{ price: number }> }>
  const book = runners.reduce((a, b) => ((b.back[0]?.price ?? 0) > (a.back[0]?.price ?? 0) ? b : a))
  const runner = exchange.runners.find((r) => r.selectionId === book.selectionId)!
  const [back, lay] = [book.back[0]!.price, book.lay[0]!.price]
  const below = ladderDown(back)
  const hold = (at: number) => price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: at, size: 5000 }, lay: { price: lay, size: 5000 }, status: "OPEN" })
  await hold(back)
  await openSignedIn(page, player.token, `/event?sport=cricket&league=${league.slugName}&event=${live.slugName}`)
  const label = back.toFixed(2)
  await page.getByRole("button", { name: `Back ${runner.name} at ${label}` }).click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("200")
  await hold(below)
  await expect(page.getByRole("button", { name: `Back ${runner.name} at ${below.toFixed(2)}` })).toBeVisible()
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText(`Waiting at ${label}`)
  const sidebar = page.getByRole("complementary", { name: "Live score and my bets" })
  const unmatched = sidebar.getByTestId("unmatched-row")
  await expect(unmatched).toHaveCount(1)
  // The market comes back: matched at the price asked, and the player is told at once.
  await hold(back)
  const toasts = page.getByTestId("toasts")
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: Matched ₹200.00 at ${label}` })).toBeVisible()
  await expect(unmatched).toHaveCount(0)
  await toasts.getByRole("button", { name: "Dismiss" }).click()

  // Another asks more than the market gives: it waits in play (kept), and Cancel gives its stake back.
  await page.getByRole("button", { name: `Back ${runner.name} at ${label}` }).click()
  const above = ladderUp(ladderUp(ladderUp(back)))
  await slip.getByRole("textbox", { name: "Odds" }).fill(above.toFixed(2))
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText(`Waiting at ${above.toFixed(2)}`)
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹300.00")
  await unmatched.getByRole("button", { name: `Cancel ₹100.00 unmatched on ${runner.name} at ${above.toFixed(2)}` }).click()
  await expect(toasts.getByRole("status").filter({ hasText: `${runner.name}: ₹100.00 cancelled` })).toBeVisible()
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹200.00")
})

test("the live panel: visitors see the promo video, players the score and TV; none for racing", async ({ page, request }) => {
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<Event> }> }>
  const cricket = sports.find((s) => s.slugName === "cricket")!
  const league = cricket.leagues.find((l) => l.events.some((e) => e.inPlay))!
  const live = league.events.find((e) => e.inPlay)!
  const path = `/event?sport=cricket&league=${league.slugName}&event=${live.slugName}`
  const sidebar = page.getByRole("complementary", { name: "Live score and my bets" })

  await page.goto(path)
  // The side panels mount once the preloader has gone, which a loaded machine can hold past an expect's timeout.
  await waitForApp(page)
  await expect(sidebar.getByTestId("promo-video")).toBeVisible()
  await expect(sidebar.getByTestId("live-panel")).toHaveCount(0)
  // From 1280 px the panels are the sidebar's alone; the page shows them only where the sidebar does not (a phone).
  await expect(page.getByRole("main").getByRole("region", { name: "My Bets" })).toHaveCount(0)
  await expect(page.getByRole("main").getByRole("group", { name: "Live score and TV" })).toHaveCount(0)
  // A visitor's click on a price asks them to log in.
  // (One with a price: a side the model makes a near certainty has none to back.)
  await page.getByRole("button", { name: /^Back .+ at / }).first().click()
  await expect(page.getByTestId("auth-modal")).toBeVisible()
  await page.keyboard.press("Escape")

  const player = await createPlayer(request, "Panel Player")
  await openSignedIn(page, player.token, path)
  const panel = sidebar.getByTestId("live-panel")
  await expect(panel).toHaveAttribute("data-state", "score")
  await expect(panel.getByTestId("live-score")).toContainText(/\d+\/\d+/)
  await expect(page.getByRole("main").getByTestId("live-score")).toBeVisible()
  await panel.getByRole("button", { name: "Tv" }).click()
  await expect(panel).toHaveAttribute("data-state", "tv")
  await expect(panel.getByLabel("Live TV (demo stream)")).toBeVisible()
  await panel.getByRole("button", { name: "Collapse live panel" }).click()
  await expect(panel).toHaveAttribute("data-state", "closed")
  await panel.getByRole("button", { name: "Score" }).click()
  await expect(panel).toHaveAttribute("data-state", "score")

  await page.goto("/racing?sport=horse-racing")
  await expect(page.getByRole("heading", { level: 1, name: "Horse Racing" })).toBeVisible()
  await expect(page.getByRole("button", { name: /^Back / }).first()).toBeVisible()
  await expect(sidebar.getByTestId("live-panel")).toHaveCount(0)
  await expect(sidebar.getByTestId("promo-video")).toHaveCount(0)
})

test("My Bets: a list the network loses comes back when money moves or a bet changes; a lost cancel or move, or a refused move, says so", async ({ page, request }) => {
  const player = await fundedPlayer(request, 2000)
  const event = await findEvent(request, "Delhi Capitals v Rajasthan Royals")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  const at = (back: number, status = "OPEN") =>
    price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: back, size: 5000 }, lay: { price: back + 0.05, size: 5000 }, status })
  // The browser aborts the next call to `path`: a failure the page must handle, the server untouched.
  const dropNextCall = (path: string) => page.route(`**${path}`, (route) => route.abort("internetdisconnected"), { times: 1 })
  await at(2.8)
  await openSignedIn(page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)

  // A bet above the market waits.
  await page.getByRole("button", { name: `Back ${runner.name} at 2.80` }).click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByRole("textbox", { name: "Odds" }).fill("3.00")
  await slip.getByLabel("Stake (₹)").fill("200")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Waiting at 3.00")
  const unmatched = page.getByRole("complementary", { name: "Live score and my bets" }).getByTestId("unmatched-row")
  await expect(unmatched).toContainText(`Back${runner.name}3.00200.00`)
  const toasts = page.getByTestId("toasts")
  const cancel = unmatched.getByRole("button", { name: `Cancel ₹200.00 unmatched on ${runner.name} at 3.00` })
  const move = unmatched.getByRole("button", { name: `Move ₹200.00 unmatched on ${runner.name} to ${ladderDown(3).toFixed(2)}` })

  // A cancel and a move the network loses: each says so, and the bet still waits at its price.
  await dropNextCall("/api/v1/cancel-bet")
  await cancel.click()
  await expect(page.getByTestId("toast-error")).toBeVisible()
  await toasts.getByRole("button", { name: "Dismiss" }).first().click()
  await expect(cancel).toBeEnabled()
  await dropNextCall("/api/v1/edit-bet")
  await move.click()
  await expect(page.getByTestId("toast-error")).toBeVisible()
  await toasts.getByRole("button", { name: "Dismiss" }).first().click()
  await expect(unmatched).toContainText(`Back${runner.name}3.00200.00`)

  // A move in a suspended market is refused with the server's message.
  await at(2.8, "SUSPENDED")
  await move.click()
  await expect(toasts).toContainText(/suspended/i)
  await expect(unmatched).toContainText(`Back${runner.name}3.00200.00`)
  await at(2.8)

  // My Bets whose list the network loses says so, and loads it when the player's money moves.
  await dropNextCall("/api/v1/bet-sport-byMarket*")
  await page.getByRole("button", { name: /Account menu/ }).click()
  await page.getByRole("menuitem", { name: "My Bets" }).click()
  const modal = page.getByRole("dialog", { name: "My Bets" })
  await expect(modal.getByRole("alert")).toHaveText("Your bets could not be loaded. Please try again.")
  const credit = await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${player.admin}` }, data: { user: player.user.username, amount: 100 } })
  expect(credit.status()).toBe(200)
  await expect(modal.getByRole("alert")).toHaveCount(0)
  await expect(modal.getByTestId("unmatched-row")).toContainText(`Back${runner.name}3.00200.00`)
  await page.keyboard.press("Escape")

  // Lost again; the waiting bet is matched: the list loads, with the bet matched.
  await dropNextCall("/api/v1/bet-sport-byMarket*")
  await page.getByRole("button", { name: /Account menu/ }).click()
  await page.getByRole("menuitem", { name: "My Bets" }).click()
  await expect(modal.getByRole("alert")).toBeVisible()
  await at(3)
  await expect(modal.getByRole("alert")).toHaveCount(0)
  await expect(modal.getByTestId("bet-row")).toContainText(`Back${runner.name}3.00200.00`)
  await page.keyboard.press("Escape")
})

test("the slip's options: the best available price matches a bet asked above the market; what waits can be kept for in play", async ({ page, request }) => {
  const player = await fundedPlayer(request, 2000)
  const event = await findEvent(request, "Delhi Capitals v Rajasthan Royals")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  await price(request, player.admin, { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 2.8, size: 5000 }, lay: { price: 2.85, size: 5000 }, status: "OPEN" })
  await openSignedIn(page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
  const slip = page.getByTestId("bet-slip")
  const best = slip.getByRole("checkbox", { name: "Take the best available price" })
  const keep = slip.getByRole("checkbox", { name: "Keep what is unmatched when the event goes in play" })

  // Asked at 3.00 with the best available price: matched at the market's 2.80 instead of waiting.
  await page.getByRole("button", { name: `Back ${runner.name} at 2.80` }).click()
  await slip.getByRole("textbox", { name: "Odds" }).fill("3.00")
  await expect(best).not.toBeChecked()
  await best.check()
  await expect(best).toBeChecked()
  await place(page, "100", "Matched ₹100.00 at 2.80")

  // Without it, the same bet waits; kept, it would stay when the event goes in play.
  await page.getByRole("button", { name: `Back ${runner.name} at 2.80` }).click()
  await slip.getByRole("textbox", { name: "Odds" }).fill("3.00")
  await expect(best).not.toBeChecked()
  await expect(keep).not.toBeChecked()
  await keep.check()
  await expect(keep).toBeChecked()
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Waiting at 3.00")
  await expect(page.getByRole("complementary", { name: "Live score and my bets" }).getByTestId("unmatched-row")).toContainText(`Back${runner.name}3.00100.00`)
})
