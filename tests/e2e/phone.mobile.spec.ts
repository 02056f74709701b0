import { expect, type Page, test } from "./coverage.ts"
import { shoot, titleFits } from "./looks.ts"
import { ladderDown, ladderUp } from "../../src/domain/ladder.ts"
import { apiLogin, catalogueEvent, createPlayer, fundedPlayer, openSignedIn, sportsData, waitForApp } from "./support.ts"

/**
 * The site on a 412 px phone (issue 30): the header's four balances, no sideways scroll, the deposit modal,
 * toasts above a modal. Each test leaves a screenshot beside its results for a person to look at.
 */
test.use({ viewport: { width: 412, height: 915 } })

/** How far the page scrolls sideways: 0 when nothing is wider than the screen. */
const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

test("no page scrolls sideways on a 412 px phone, the Register button's pulse included", async ({ page }) => {
  // The visitor's home and /login while Register pulses (its ring scales past the button): the page's clock is
  // held, so the 10 s pulse outlasts the check however slow the machine is; only the preloader's second runs.
  await page.clock.install()
  for (const visited of ["/", "/login"]) {
    await page.goto(visited)
    await expect(page.locator("main#main")).toBeAttached({ timeout: 20_000 })
    await expect(async () => {
      await page.clock.runFor(250)
      await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 250 })
    }).toPass({ timeout: 20_000 })
    await expect(page.getByRole("button", { name: "Register" })).toHaveAttribute("data-pulsing", "true")
    expect(await sidewaysScroll(page), visited).toBe(0)
  }
})

test("no page scrolls sideways on a 412 px phone: an event, a lobby, a player's pages", async ({ page, request }) => {
  const { path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  for (const visited of [path, "/live-casino"]) {
    await page.goto(visited)
    await waitForApp(page)
    expect(await sidewaysScroll(page), visited).toBe(0)
  }
  const player = await createPlayer(request, "Phone Scroll Player")
  await openSignedIn(page, player.token, "/deposit")
  await expect(page.getByTestId("deposit-account-upi").first()).toBeVisible()
  expect(await sidewaysScroll(page), "/deposit").toBe(0)
  await page.goto(path)
  await waitForApp(page)
  await expect(page.getByTestId("balance-block")).toBeVisible()
  expect(await sidewaysScroll(page), path).toBe(0)
})

test("the header shows Balance, Exposure, Bonus and Ref. Bonus on a phone", async ({ page, request }) => {
  await openSignedIn(page, (await apiLogin(request, "demo")).token)
  const block = page.getByTestId("balance-block")
  for (const label of ["Balance", "Exposure", "Bonus", "Ref. Bonus"]) await expect(block.getByText(label, { exact: true })).toBeVisible()
  for (const id of ["balance-balance", "balance-exposure", "balance-bonus", "balance-ref-bonus"]) await expect(page.getByTestId(id)).toBeVisible()
  // All of it on screen, beside the account menu, within the header's row.
  const menu = await page.getByRole("button", { name: /Account menu/ }).boundingBox()
  expect(menu!.x + menu!.width).toBeLessThanOrEqual(412)
  // Compact: the block stays in the header's first row, above the section switch.
  const sections = await page.getByRole("navigation", { name: "Sections", exact: true }).boundingBox()
  const balances = await block.boundingBox()
  expect(balances!.y + balances!.height).toBeLessThanOrEqual(sections!.y)
  await shoot(page, "header-player")
})

test("a credit player's phone header shows Credit Ref. instead of the bonuses", async ({ page, request }) => {
  await openSignedIn(page, (await apiLogin(request, "credit")).token)
  await expect(page.getByTestId("balance-credit-ref-")).toHaveText("₹50,000.00")
  await expect(page.getByTestId("balance-exposure")).toBeVisible()
  await expect(page.getByTestId("balance-bonus")).toHaveCount(0)
  await shoot(page, "header-credit-player")
})

test("deposit by UPI on a phone: pay with a UPI app, quick amounts that read as amounts, names that wrap between words; toasts above the modal", async ({ page, request }) => {
  const player = await createPlayer(request, "Phone Deposit Player")
  await openSignedIn(page, player.token, "/deposit")
  await page.getByTestId("deposit-account-upi").first().getByRole("button", { name: "Deposit by UPI" }).click()
  const modal = page.getByRole("dialog")
  const holder = (await modal.getByTestId("detail-account-holder").textContent())!
  const upiId = (await modal.getByTestId("detail-upi-id").textContent())!

  // The phone cannot scan its own screen: the link opens the player's UPI app with the payment filled in.
  const link = modal.getByRole("link", { name: "Pay with a UPI app" })
  await expect(link).toBeVisible()
  const upi = (href: string | null) => new URL(href!)
  expect(upi(await link.getAttribute("href")).protocol).toBe("upi:")
  expect(upi(await link.getAttribute("href")).searchParams.get("pa")).toBe(upiId)
  expect(upi(await link.getAttribute("href")).searchParams.get("pn")).toBe(holder)
  expect(upi(await link.getAttribute("href")).searchParams.has("am")).toBe(false)

  // The quick amounts set the amount (SPEC: 500, 1000, 5000, 10000), and say so.
  const quick = modal.getByRole("group", { name: "Quick amounts" }).getByRole("button")
  await expect(quick).toHaveText(["500", "1,000", "5,000", "10,000"])
  await quick.nth(2).click()
  await expect(modal.getByRole("textbox", { name: "Amount" })).toHaveValue("5000")
  await expect(quick.nth(2)).toHaveAttribute("aria-pressed", "true")
  await expect.poll(async () => upi(await link.getAttribute("href")).searchParams.get("am")).toBe("5000.00")

  // The holder's name wraps between words, never inside one.
  const wordsSplit = await modal.getByTestId("detail-account-holder").evaluate((element) => {
    const text = element.firstChild!
    let split = 0
    for (const match of element.textContent!.matchAll(/\S+/g)) {
      const range = document.createRange()
      range.setStart(text, match.index)
      range.setEnd(text, match.index + match[0].length)
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split++
    }
    return split
  })
  expect(wordsSplit).toBe(0)
  await shoot(page, "deposit-upi")

  // A refusal's toast shows above the modal, readable and clickable (not under its backdrop), two at most.
  await modal.getByRole("textbox", { name: "Amount" }).fill("")
  await modal.getByRole("button", { name: "Confirm" }).click()
  await modal.getByRole("textbox", { name: "Amount" }).fill("50")
  await modal.getByRole("button", { name: "Confirm" }).click()
  await modal.getByRole("textbox", { name: "Amount" }).fill("500")
  await modal.getByRole("button", { name: "Confirm" }).click()
  const toasts = page.getByTestId("toasts").locator("[data-testid^=toast-]")
  await expect(toasts.last()).toHaveText("Please provide reference-id or upload a screenshot.")
  await expect(toasts).toHaveCount(2)
  const onTop = await toasts.last().evaluate((toast) => {
    const box = toast.getBoundingClientRect()
    return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)?.closest("[data-testid^=toast-]") === toast
  })
  expect(onTop).toBe(true)
  await shoot(page, "toasts-over-modal")
  await toasts.last().getByRole("button", { name: "Dismiss" }).click()
  await expect(toasts).toHaveCount(1)

  // The bank account: its type reads as a word, capitalised.
  await page.keyboard.press("Escape")
  await page.getByTestId("deposit-account-bank").first().getByRole("button", { name: "Deposit By Account" }).click()
  await expect(page.getByRole("dialog").getByTestId("detail-account-type")).toHaveText(/^(Savings|Current)$/)
  await expect(page.getByRole("dialog").getByRole("link", { name: "Pay with a UPI app" })).toHaveCount(0)
})

/** Top edges, to check what comes above what. */
const top = async (locator: ReturnType<Page["locator"]>) => (await locator.boundingBox())!.y

test("the event page on a phone has the sidebar's panels: live score and TV above the markets, the event's My Bets below", async ({ page, request }) => {
  const { event, path } = await catalogueEvent(request, "Royal Challengers Bengaluru v Kolkata Knight Riders")
  const main = page.getByRole("main")

  // A visitor: the promo video in a panel that folds away, and a note where the bets would be.
  await page.goto(path)
  await waitForApp(page)
  const live = main.getByRole("group", { name: "Live score and TV" })
  await expect(live.getByTestId("promo-video")).toBeVisible()
  await expect(main.getByTestId("live-panel")).toHaveCount(0)
  const bets = main.getByRole("region", { name: "My Bets" })
  await expect(bets).toContainText("Log in to see your bets.")
  const markets = main.getByRole("region", { name: /^Match Odds/ })
  expect(await top(live)).toBeLessThan(await top(markets))
  expect(await top(markets)).toBeLessThan(await top(bets))
  await shoot(page, "event-visitor")
  await live.getByText("Live score and TV", { exact: true }).click()
  await expect(live.getByTestId("promo-video")).toBeHidden()

  // A player: Score and Tv with the collapse button, and the bet just placed in My Bets under the markets.
  const player = await fundedPlayer(request, 1000, "Phone Panel Player")
  await openSignedIn(page, player.token, path)
  const panel = main.getByTestId("live-panel")
  await expect(panel).toHaveAttribute("data-state", "score")
  await panel.getByRole("button", { name: "Tv" }).click()
  await expect(panel).toHaveAttribute("data-state", "tv")
  await panel.getByRole("button", { name: "Collapse live panel" }).click()
  await expect(panel).toHaveAttribute("data-state", "closed")
  expect(await top(panel)).toBeLessThan(await top(markets))
  await expect(bets.getByText("No Data Available")).toBeVisible()
  // The operator's own price holds still while the bet is placed (the simulator leaves a priced market alone).
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  const priced = await request.post("/api/v1/admin/market-price", {
    headers: { authorization: `Bearer ${player.admin}` },
    data: { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 2.5, size: 5000 }, lay: { price: 2.52, size: 5000 }, status: "OPEN" }
  })
  expect(priced.status()).toBe(200)
  // A price just above the bottom bar, on a screen as short as a phone's with its browser's bars: the slip opening
  // under it comes into view whole, Place Bet above the bottom bar (focusing the stake alone left it under the bar).
  await page.setViewportSize({ width: 412, height: 732 })
  const slip = page.getByTestId("bet-slip")
  const bar = page.getByRole("navigation", { name: "Main" })
  const barTop = (await bar.boundingBox())!.y
  const below = await main.getByRole("button", { name: /^Back .* at / }).evaluateAll((cells, top) =>
    cells.map((cell) => ({ id: cell.getAttribute("data-testid"), bottom: cell.getBoundingClientRect().bottom })).find((cell) => cell.bottom > top + 100), barTop)
  expect(below).toBeDefined()
  await page.evaluate((by) => window.scrollBy(0, by), below!.bottom - (barTop - 4))
  await page.getByTestId(below!.id!).click()
  await expect(slip.getByLabel("Stake (₹)")).toBeFocused()
  const place = (await slip.getByRole("button", { name: "Place Bet" }).boundingBox())!
  expect(place.y + place.height).toBeLessThanOrEqual(barTop)
  await slip.getByRole("button", { name: "Cancel" }).click()
  await page.setViewportSize({ width: 412, height: 915 })
  await markets.getByRole("button", { name: `Back ${runner.name} at 2.50` }).click()
  await slip.getByLabel("Stake (₹)").fill("100")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(bets.getByTestId("bet-row")).toHaveCount(1)
  await expect(bets.getByTestId("bet-row")).toContainText(`Back${runner.name}`)
  await bets.scrollIntoViewIfNeeded()
  await shoot(page, "event-player")
})

test("a race on a phone has the player's bets on it below its markets, and no live score or TV", async ({ page, request }) => {
  await openSignedIn(page, (await apiLogin(request, "demo")).token, "/racing?sport=horse-racing")
  const main = page.getByRole("main")
  await expect(main.getByRole("heading", { level: 1, name: "Horse Racing" })).toBeVisible()
  await expect(main.getByRole("button", { name: /^Back / }).first()).toBeVisible()
  await expect(main.getByRole("region", { name: "My Bets" })).toBeVisible()
  await expect(main.getByTestId("live-panel")).toHaveCount(0)
  await expect(main.getByRole("group", { name: "Live score and TV" })).toHaveCount(0)
})

test("a price change on a phone rings its cell and keeps Back blue and Lay pink", async ({ page, request }) => {
  // A football match: no other spec bets on or prices football, so holding a price here touches no one else's event.
  const football = (await sportsData(request)).find((s) => s.slugName === "football")!
  const league = football.leagues.find((l) => l.events.some((e) => !e.inPlay))!
  const event = league.events.filter((e) => !e.inPlay).at(-1)!
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  const { token: admin } = await apiLogin(request, "admin")
  // The operator holds the runner's prices (the model no longer moves them), then moves both a tick.
  const hold = async (back: number, lay: number) => {
    const res = await request.post("/api/v1/admin/market-price", {
      headers: { authorization: `Bearer ${admin}` },
      data: { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: back, size: 5000 }, lay: { price: lay, size: 5000 }, status: "OPEN" }
    })
    expect(res.status()).toBe(200)
  }
  const book = (await (await request.get(`/api/v1/event-odds?event_id=${event._id}`)).json()).data.markets
    .find((m: { marketId: string }) => m.marketId === exchange.marketId).runners
    .find((r: { selectionId: string }) => r.selectionId === runner.selectionId) as { back: Array<{ price: number }>; lay: Array<{ price: number }> }
  const held = { back: book.back[0]!.price, lay: book.lay[0]!.price }
  await hold(held.back, held.lay)
  await page.goto(`/event?sport=football&league=${league.slugName}&event=${event.slugName}`)
  const cells = { back: `odds-${exchange.marketId}-${runner.selectionId}-back-0`, lay: `odds-${exchange.marketId}-${runner.selectionId}-lay-0` }
  await expect(page.getByTestId(cells.back)).toHaveAccessibleName(`Back ${runner.name} at ${held.back.toFixed(2)}`)
  await expect(page.getByTestId(cells.lay)).toHaveAccessibleName(`Lay ${runner.name} at ${held.lay.toFixed(2)}`)
  // A phone shows the best price of each side only, and renders no deeper cells it would hide.
  await expect(page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-back-1`)).toHaveCount(0)
  await expect(page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-lay-2`)).toHaveCount(0)
  // No ring lit from an earlier change: a ring lit again while still lit would not be seen changing.
  await expect(page.getByTestId(cells.back).getByTestId("price-flash")).toHaveCSS("opacity", "0")
  await expect(page.getByTestId(cells.lay).getByTestId("price-flash")).toHaveCSS("opacity", "0")
  // Each time a cell's ring lights, the page notes how the cell and its ring are painted at that moment (computed
  // styles, not pixels: what is painted is read however slow the machine or wherever the cell has moved).
  const steady = await page.evaluate((ids) => {
    const looks: Array<Record<string, string>> = []
    Object.assign(window, { ringLooks: looks })
    for (const [side, id] of Object.entries(ids)) {
      const cell = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!
      const ring = cell.querySelector<HTMLElement>("[data-testid=price-flash]")!
      new MutationObserver(() => {
        if (ring.style.opacity !== "1") return
        const [c, r] = [getComputedStyle(cell), getComputedStyle(ring)]
        const warn = r.getPropertyValue("--warn").trim().split(/\s+/).join(", ")
        looks.push({ side, cell: c.backgroundColor, fill: r.backgroundColor, width: r.borderTopWidth, colour: r.borderTopColor, warn: `rgb(${warn})` })
      }).observe(ring, { attributes: true, attributeFilter: ["style"] })
    }
    return Object.fromEntries(Object.entries(ids).map(([side, id]) => [side, getComputedStyle(document.querySelector(`[data-testid="${id}"]`)!).backgroundColor]))
  }, cells)
  expect(steady.back).not.toBe(steady.lay)
  await hold(ladderDown(held.back), ladderUp(held.lay))
  const looks = () => page.evaluate(() => (window as unknown as { ringLooks: Array<Record<string, string>> }).ringLooks)
  await expect.poll(async () => new Set((await looks()).map((look) => look.side))).toEqual(new Set(["back", "lay"]))
  // Lit, each cell keeps its side's colour; the flash is a ring in the warning colour, with no fill over the cell.
  for (const look of await looks()) {
    expect(look.cell, look.side).toBe(steady[look.side!])
    expect(look.fill).toBe("rgba(0, 0, 0, 0)")
    expect(look.width).toBe("2px")
    expect(look.colour).toBe(look.warn)
  }
  await shoot(page, "phone-price-flash")
})

test("casino titles fit their cards on a phone", async ({ page }) => {
  await page.goto("/live-casino")
  await waitForApp(page)
  await expect(page.getByTestId("game-title").first()).toBeVisible()
  for (const title of await page.getByTestId("game-title").all()) expect(await titleFits(title), await title.textContent() ?? "").toBe(true)
  await shoot(page, "live-casino-lobby")
})
