import type { Locator, Page } from "@playwright/test"
import { test } from "./coverage.ts"

/** What the look-and-feel specs share (layout.spec.ts at 1366 px, phone.mobile.spec.ts at 412 px). */

/** A screenshot kept beside the test's results (and attached to its report), for a person to look at. */
export const shoot = async (page: Page, name: string) => {
  const path = test.info().outputPath(`${name}.png`)
  await page.screenshot({ path })
  await test.info().attach(name, { path, contentType: "image/png" })
}

/** Whether a card's title shows whole: not cut by its box (two lines at most). */
export const titleFits = (title: Locator) => title.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1)
