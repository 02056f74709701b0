import { expect, test } from "./coverage.ts"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { decodeEventLog, statesOf } from "../../src/root/eventLog.ts"
import type { ReplayedPage } from "../../src/root/replay.ts"
import { apiLogin, createPlayer, waitForApp, waitForLoginReload } from "./support.ts"

/**
 * The event log, end to end: a real session in Chromium against the real
 * server (sign in, with a wrong password first; open an event; place a bet),
 * downloaded with the QA shortcut, then `npm run replay` on that file in Node.
 * The replay must reach the states the browser's machines reached, actor by
 * actor, page by page; and the file must hold none of the secrets typed or
 * received.
 */

const FIXTURE = "Royal Challengers Bengaluru v Kolkata Knight Riders"

interface Market {
  marketId: string
  marketType: string
  runners: Array<{ selectionId: string; name: string }>
}

test("a recorded session replays headlessly to the same states, actor by actor", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000)
  const player = await createPlayer(request, "Replay Player")
  const admin = await apiLogin(request, "admin")
  const auth = { authorization: `Bearer ${admin.token}` }
  expect((await request.post("/api/v1/admin/credit", { headers: auth, data: { user: player.user.username, amount: 2000 } })).status()).toBe(200)
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ leagues: Array<{ events: Array<{ name: string; markets: Array<Market> }> }> }>
  const event = sports.flatMap((s) => s.leagues.flatMap((l) => l.events)).find((e) => e.name === FIXTURE)!
  const market = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = market.runners[0]!
  // The operator's own price, so the simulator leaves it where the test clicks.
  const priced = await request.post("/api/v1/admin/market-price", {
    headers: auth,
    data: { marketId: market.marketId, selectionId: runner.selectionId, back: { price: 2.5, size: 5000 }, lay: { price: 2.52, size: 5000 }, status: "OPEN" }
  })
  expect(priced.status()).toBe(200)

  // Sign in: a wrong password first (the server refuses it), then the right one; the site reloads on success.
  await page.goto("/")
  await waitForApp(page)
  const dialog = page.getByRole("dialog")
  await page.getByRole("banner").getByRole("button", { name: "Login" }).click()
  await dialog.getByRole("tab", { name: "Username" }).click()
  await dialog.getByLabel("Username").fill(player.user.username)
  await dialog.getByLabel("Password", { exact: true }).fill("Wrong@9876")
  await dialog.getByRole("button", { name: "Login", exact: true }).click()
  await expect(dialog.getByRole("alert")).toBeVisible()
  await dialog.getByLabel("Password", { exact: true }).fill(player.password)
  await dialog.getByRole("button", { name: "Login", exact: true }).click()
  await waitForLoginReload(page)
  await expect(page.getByTestId("balance-block")).toBeVisible()

  // Open the event from the sidebar's search and place a bet.
  await page.getByRole("searchbox").first().fill("kolkata knight")
  await page.getByRole("link", { name: new RegExp(FIXTURE) }).first().click()
  await expect(page.getByRole("heading", { level: 1, name: FIXTURE })).toBeVisible()
  await page.getByRole("button", { name: `Back ${runner.name} at 2.50` }).click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("200")
  await slip.getByRole("button", { name: "Place Bet" }).click()
  await expect(slip.getByRole("status")).toHaveText("Matched ₹200.00 at 2.50")
  await expect(slip).toBeHidden()
  // The stake is held: the user's socket event has reloaded the user.
  await expect(page.getByTestId("balance-exposure")).toHaveText("₹200.00")

  // What QA does: Ctrl+Alt+L downloads the log.
  const downloading = page.waitForEvent("download")
  await page.keyboard.press("Control+Alt+KeyL")
  const file = testInfo.outputPath("session-log.json")
  await (await downloading).saveAs(file)
  const text = readFileSync(file, "utf8")

  // Redacted: neither password typed, nor the session token the server sent (stored by the site).
  const token = await page.evaluate(() => localStorage.getItem("token") ?? sessionStorage.getItem("token"))
  for (const secret of [player.password, "Wrong@9876", token]) {
    expect(secret).toBeTruthy()
    expect(text).not.toContain(secret!)
  }
  const log = decodeEventLog(JSON.parse(text))
  // The page before the sign-in reload, and the one after it.
  expect(log.pages.length).toBe(2)

  const run = execFileSync(process.execPath, ["scripts/replay.ts", file, "--json"], { encoding: "utf8" })
  const result = JSON.parse(run) as { reached: boolean; pages: Array<ReplayedPage> }
  expect(result.pages.map((p) => p.problems)).toEqual([[], []])
  expect(result.reached).toBe(true)

  // The same states, actor by actor, read straight from the log.
  log.pages.forEach((recorded, i) => {
    const replayed = new Map(result.pages[i]!.actors.map((a) => [a.actor, a.replayed]))
    for (const [actor, states] of statesOf(recorded.entries)) expect(replayed.get(actor), `page ${i + 1}, ${actor}`).toEqual(states)
  })
  const states = (pageIndex: number, actor: string) => result.pages[pageIndex]!.actors.find((a) => a.actor === actor)?.replayed ?? []
  // Page 1: the sign-in modal refused the wrong password, then signed in.
  expect(states(0, "app/session")).toEqual(["LoggedOut", "LoggedIn.Idle"])
  expect(states(0, "app/authModal").filter((s) => s.startsWith("Login")).length).toBeGreaterThan(1)
  // Page 2: restored from the stored token; the bet moved money, the user's socket event reloaded the user.
  expect(states(1, "app/session").slice(0, 2)).toEqual(["Restoring", "LoggedIn.Idle"])
  expect(states(1, "app/session")).toContain("LoggedIn.Refreshing")
  expect(states(1, "app").at(-1)).toMatch(/^Ready/)
  // The bet slip opened on the price, placed the bet and closed; the event's open bets were reloaded after it.
  const slipStates = states(1, "app/betSlip")
  expect(slipStates.slice(slipStates.indexOf("Open.Placing"))).toEqual(["Open.Placing", "Open.Placed", "Closed"])
  const eventBets = result.pages[1]!.actors.find((a) => a.logic === "myBets")
  expect(eventBets?.replayed.filter((s) => s === "Ready").length).toBeGreaterThan(1)
})
