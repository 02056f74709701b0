import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import sharp from "sharp"
import { createPlayer, fundedPlayer, openSignedIn } from "./support.ts"

/**
 * The operator's desk (/admin) in Chromium: its own bundle, and support
 * working the queues beside a player's open tab, live both ways.
 */
const DIST = "dist-test"

/** Staff sign in on the desk in a browser of their own (its token is apart from the player's). */
const openDesk = async (browser: Browser, username: "support", password: string) => {
  const desk = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage()
  await desk.goto("/admin")
  const form = desk.getByRole("form", { name: "Sign in to the desk" })
  await form.getByRole("textbox", { name: "Username" }).fill(username)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in" }).click()
  await expect(desk.getByRole("navigation", { name: "Desk" })).toBeVisible()
  return desk
}

const depositAccountId = async (request: APIRequestContext, token: string) => {
  const accounts = await (await request.get("/api/v1/admin-account-details", { headers: { authorization: `Bearer ${token}` } })).json()
  return (accounts.data as Array<{ _id: string; type: string }>).find((account) => account.type === "upi")!._id
}

const balance = (page: Page) => page.getByTestId("balance-balance")

test("the desk is an app of its own: none of its code is in the player's pages or chunks", () => {
  const assets = readdirSync(join(DIST, "assets")).filter((name) => name.endsWith(".js"))
  const desk = assets.filter((name) => name.startsWith("desk-"))
  expect(desk.length).toBeGreaterThan(0)
  // The desk's own words: its sign-in form and where it keeps its session.
  for (const name of assets.filter((name) => !name.startsWith("desk-"))) {
    const text = readFileSync(join(DIST, "assets", name), "utf8")
    expect(text.includes("Sign in to the desk") || text.includes("khel.desk.token"), name).toBe(false)
  }
  const index = readFileSync(join(DIST, "index.html"), "utf8")
  expect(index).not.toContain("desk-")
  expect(readFileSync(join(DIST, "admin.html"), "utf8")).toMatch(/assets\/desk-[\w-]+\.js/)
})

test("support works the deposit queue live: a screenshot deposit appears, is claimed and approved, the player's balance rises", async ({ page, browser, request }) => {
  const player = await createPlayer(request, "Desk Depositor")
  await openSignedIn(page, player.token, "/")
  await expect(balance(page)).toHaveText("₹0.00")

  const desk = await openDesk(browser, "support", "Support@1234")
  await expect(desk).toHaveURL(/\/admin\/deposits$/)
  await desk.getByRole("textbox", { name: "Player (name, username, mobile or id)" }).fill(player.user.username)
  const list = desk.getByRole("table", { name: "Deposit requests" })
  await expect(list).toContainText("No requests match.")

  // The player files a deposit with a screenshot: the open desk shows it without a reload.
  const shot = `data:image/png;base64,${(await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer()).toString("base64")}`
  const filed = await request.post("/api/v1/admin-deposit-request", {
    headers: { authorization: `Bearer ${player.token}` },
    data: { amount: 1500, accountId: await depositAccountId(request, player.token), type: "upi", baseImage: shot }
  })
  expect(filed.status()).toBe(200)
  const row = list.getByRole("row", { name: /Desk Depositor/ })
  await expect(row).toContainText("₹1,500.00")

  await row.click()
  const pane = desk.getByRole("complementary", { name: "Deposit request" })
  await expect(pane.getByRole("img", { name: "The payment screenshot the player sent" })).toBeVisible()
  await pane.getByRole("button", { name: "Zoom in" }).click()
  await expect(pane.getByRole("group", { name: "Zoom" })).toContainText("150%")
  // Keyboard: c claims, a approves.
  await desk.keyboard.press("c")
  await expect(pane).toContainText("You are working on this request.")
  await desk.keyboard.press("a")
  await expect(pane).toContainText("Decided by support")
  await expect(pane.locator(".badge-approved")).toHaveText("approved")

  // The player's tab hears it.
  await expect(balance(page)).toHaveText("₹1,500.00")
  await desk.context().close()
})
