import { expect, type Page, test } from "@playwright/test"
import { apiLogin, createPlayer, waitForApp } from "./support.ts"

/**
 * The Content-Security-Policy in a real browser: the site works under it from
 * sign-in to a Khel Originals table, nothing it does is refused, and a script
 * injected into the page (what an XSS would do to steal the token from local
 * storage) does not run.
 */

declare global {
  interface Window {
    cspViolations?: Array<string>
    injected?: boolean
  }
}

/** Records every CSP violation the page reports, from its first script on. */
const watchViolations = (page: Page) =>
  page.addInitScript(() => {
    window.cspViolations = []
    document.addEventListener("securitypolicyviolation", (event) => {
      window.cspViolations!.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`)
    })
  })

const violations = (page: Page) => page.evaluate(() => window.cspViolations ?? [])

const dialog = (page: Page) => page.getByRole("dialog")

test("the site works under its CSP: sign in, an event, the casino, a Khel table — and nothing is refused", async ({ page, request }) => {
  const player = await createPlayer(request, "Policy Player")
  const admin = await apiLogin(request, "admin")
  expect((await request.post("/api/v1/admin/credit", { headers: { authorization: `Bearer ${admin.token}` }, data: { user: player.user.username, amount: 2000 } })).status()).toBe(200)
  await watchViolations(page)

  const home = await page.goto("/")
  const csp = home!.headers()["content-security-policy"]!
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("frame-ancestors 'none'")
  await waitForApp(page)

  // Sign in through the modal.
  await page.getByRole("banner").getByRole("button", { name: "Login" }).click()
  await dialog(page).getByRole("tab", { name: "Username" }).click()
  await dialog(page).getByLabel("Username").fill(player.user.username)
  await dialog(page).getByLabel("Password", { exact: true }).fill(player.password)
  await dialog(page).getByRole("button", { name: "Login", exact: true }).click()
  await expect(page.getByTestId("balance-balance")).toHaveText("₹2,000.00")
  expect(await violations(page)).toEqual([])

  // An event page with live prices.
  const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{ slugName: string; leagues: Array<{ slugName: string; events: Array<{ slugName: string; name: string }> }> }>
  const cricket = sports.find((sport) => sport.slugName === "cricket")!
  const league = cricket.leagues[0]!
  const event = league.events[0]!
  await page.goto(`/event?sport=cricket&league=${league.slugName}&event=${event.slugName}`)
  await waitForApp(page)
  await expect(page.getByRole("heading", { name: event.name })).toBeVisible()
  await expect(page.getByRole("button", { name: /^Back .+ at \d/ }).first()).toBeVisible()
  expect(await violations(page)).toEqual([])

  // The casino lobby, then a Khel Originals table in the same window.
  await page.goto("/live-casino")
  await waitForApp(page)
  expect(await violations(page)).toEqual([])
  await page.getByRole("button", { name: "Play Khel Dragon Tiger by Khel Originals" }).click()
  await page.waitForURL(/\/games\/khel\/dragon-tiger\?token=/)
  await expect(page.getByRole("heading", { name: "Dragon Tiger" })).toBeVisible()
  await expect(page.locator("#balance")).toHaveText("₹2,000.00")
  await page.getByRole("button", { name: /^Dragon/ }).click()
  await page.getByRole("button", { name: "Deal" }).click()
  await expect(page.locator("#result")).not.toBeEmpty()
  await page.getByRole("button", { name: "Verify this round" }).click()
  await expect(page.locator("#verdict")).toHaveText(/^Verified/)
  expect(await violations(page)).toEqual([])
  await page.getByRole("link", { name: /Back to lobby/ }).click()
  await waitForApp(page)
  expect(await violations(page)).toEqual([])
})

test("an injected inline script does not run, and neither does an inline event handler", async ({ page }) => {
  await watchViolations(page)
  await page.goto("/")
  await waitForApp(page)
  await page.evaluate(() => {
    localStorage.setItem("token", "secret-token")
    const script = document.createElement("script")
    script.textContent = "window.injected = true; fetch('/steal?' + localStorage.getItem('token'))"
    document.body.appendChild(script)
    const image = document.createElement("div")
    image.innerHTML = `<img src="/favicon.svg" onload="window.injected = true">`
    document.body.appendChild(image)
  })
  await expect.poll(() => violations(page)).toEqual(expect.arrayContaining([expect.stringMatching(/^script-src-elem inline/), expect.stringMatching(/^script-src-attr inline/)]))
  expect(await page.evaluate(() => window.injected)).toBeUndefined()
})
