import { type Browser, expect } from "@playwright/test"
import { type DemoStaff, deskSignIn } from "../http.ts"
import { baseUrl } from "./support.ts"

/**
 * A demo staff member's desk in a browser context of its own (its token is
 * apart from the player's), already signed in: the session comes from the
 * API's sign-in with the second factor (one per member for the whole run),
 * as a desk tab that signed in before would find it in storage.
 */
export const openDesk = async (browser: Browser, username: DemoStaff, path = "/admin") => {
  const { token } = await deskSignIn(baseUrl(), username)
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } })
  await context.addInitScript((t) => localStorage.setItem("khel.desk.token", t), token)
  const desk = await context.newPage()
  await desk.goto(path)
  await expect(desk.getByRole("navigation", { name: "Desk" })).toBeVisible()
  return desk
}
