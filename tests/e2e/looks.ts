import type { APIRequestContext, Locator, Page } from "@playwright/test"
import sharp from "sharp"
import { expect, test } from "./coverage.ts"
import { apiLogin, catalogueEvent } from "./support.ts"

/** What the look-and-feel specs share (layout.spec.ts at 1366 px, phone.mobile.spec.ts at 412 px). */

/** A screenshot kept beside the test's results (and attached to its report), for a person to look at. */
export const shoot = async (page: Page, name: string) => {
  const path = test.info().outputPath(`${name}.png`)
  await page.screenshot({ path })
  await test.info().attach(name, { path, contentType: "image/png" })
}

/** Whether a card's title shows whole: not cut by its box (two lines at most). */
export const titleFits = (title: Locator) => title.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1)

/** The colour of a cell as painted: at its middle above its text (inside where a ring would be), or on its left edge. */
const painted = async (page: Page, element: Locator, where: "inside" | "edge" = "inside") => {
  const box = (await element.boundingBox())!
  const at = where === "inside" ? { x: box.x + box.width / 2 - 1, y: box.y + 4 } : { x: box.x, y: box.y + box.height / 2 - 1 }
  const shot = await page.screenshot({ clip: { ...at, width: 2, height: 2 } })
  const { data } = await sharp(shot).raw().toBuffer({ resolveWithObject: true })
  return [data[0]!, data[1]!, data[2]!] as const
}

/**
 * A Back and a Lay cell looked at steady and lit as a price change lights them (the flash's own `opacity: 1`, set
 * here so it stays lit while it is looked at, however slow the machine): lit or not, Back stays blue and Lay pink,
 * and the flash still shows (at the cell's edge).
 */
export const expectFlashKeepsColours = async (page: Page, request: APIRequestContext, name: string) => {
  const { event, path } = await catalogueEvent(request, "Gujarat Titans v Lucknow Super Giants")
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  // Held still by the operator's price (an event no other spec prices), so no price change lights it meanwhile.
  const admin = (await apiLogin(request, "admin")).token
  const res = await request.post("/api/v1/admin/market-price", {
    headers: { authorization: `Bearer ${admin}` },
    data: { marketId: exchange.marketId, selectionId: runner.selectionId, back: { price: 3, size: 5000 }, lay: { price: 3.05, size: 5000 }, status: "OPEN" }
  })
  expect(res.status()).toBe(200)
  await page.goto(path)
  const back = page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-back-0`)
  const lay = page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-lay-0`)
  await expect(back).toBeEnabled()
  await expect(lay).toBeEnabled()
  const look = async () => ({ back: await painted(page, back), lay: await painted(page, lay), edge: await painted(page, back, "edge") })
  const light = (on: boolean) =>
    page.locator("[data-testid=price-flash]").evaluateAll((flashes, opacity) => flashes.forEach((f) => ((f as HTMLElement).style.opacity = opacity)), on ? "1" : "0")
  await light(false)
  const steady = await look()
  await light(true)
  const lit = await look()
  await shoot(page, name)
  for (const side of ["back", "lay"] as const) {
    for (const channel of [0, 1, 2]) expect(Math.abs(lit[side][channel]! - steady[side][channel]!), `${side} channel ${channel}`).toBeLessThanOrEqual(6)
  }
  // The two sides differ at a glance: blue has more blue than red, pink more red than blue.
  expect(lit.back[2]).toBeGreaterThan(lit.back[0])
  expect(lit.lay[0]).toBeGreaterThan(lit.lay[2])
  // And the flash is seen: its ring changes the cell's edge.
  expect(Math.max(...[0, 1, 2].map((c) => Math.abs(lit.edge[c]! - steady.edge[c]!)))).toBeGreaterThan(30)
}
