import type { APIRequestContext, Locator, Page } from "@playwright/test"
import sharp from "sharp"
import { expect, test } from "./coverage.ts"
import { sportsData } from "./support.ts"

/** What the look-and-feel specs share (layout.spec.ts at 1366 px, phone.mobile.spec.ts at 412 px). */

/** A screenshot kept beside the test's results (and attached to its report), for a person to look at. */
export const shoot = async (page: Page, name: string) => {
  const path = test.info().outputPath(`${name}.png`)
  await page.screenshot({ path })
  await test.info().attach(name, { path, contentType: "image/png" })
}

/** Whether a card's title shows whole: not cut by its box (two lines at most). */
export const titleFits = (title: Locator) => title.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1)

/** The colour of a cell as painted: at its middle, above its text and inside where a ring would be. */
const painted = async (page: Page, element: Locator) => {
  const box = (await element.boundingBox())!
  const shot = await page.screenshot({ clip: { x: box.x + box.width / 2 - 1, y: box.y + 4, width: 2, height: 2 } })
  const { data } = await sharp(shot).raw().toBuffer({ resolveWithObject: true })
  return [data[0]!, data[1]!, data[2]!] as const
}

/**
 * A Back and a Lay cell looked at steady and lit as a price change lights them (the flash's own `opacity: 1`, set
 * here so it stays lit while it is looked at, however slow the machine): lit or not, Back stays blue and Lay pink,
 * and the flash is a ring (a border, no fill). Any open market will do: the middle of a cell is its side's colour
 * whatever its price, and the simulator's own flashes light only the ring.
 */
export const expectFlashKeepsColours = async (page: Page, request: APIRequestContext, name: string) => {
  // A football match before its start that no spec prices by hand (a price pinned against the model suspends the event).
  const football = (await sportsData(request)).find((s) => s.slugName === "football")!
  const league = football.leagues.find((l) => l.events.some((e) => !e.inPlay))!
  const event = league.events.filter((e) => !e.inPlay).at(-1)!
  const exchange = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const runner = exchange.runners[0]!
  await page.goto(`/event?sport=football&league=${league.slugName}&event=${event.slugName}`)
  const back = page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-back-0`)
  const lay = page.getByTestId(`odds-${exchange.marketId}-${runner.selectionId}-lay-0`)
  await expect(back).toBeEnabled()
  await expect(lay).toBeEnabled()
  const look = async () => ({ back: await painted(page, back), lay: await painted(page, lay) })
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
  // And the flash is seen: a ring of the warning colour around the cell, with nothing over its middle.
  const flash = back.getByTestId("price-flash")
  await expect(flash).toHaveCSS("border-top-width", "2px")
  await expect(flash).toHaveCSS("background-color", "rgba(0, 0, 0, 0)")
}
