/**
 * `npm run screenshots`: takes the screenshots of the web manifest's richer
 * install sheet (src/domain/pwa.ts SCREENSHOTS) from the built site on a fresh
 * demo database, into public/screenshots: a phone on an event with the bet
 * slip open, and a laptop on the home page. Run it again when the site's look
 * changes.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import sharp from "sharp"
import { demoToken, launchChromium, startServer } from "../bench/support.ts"
import { SCREENSHOTS } from "../src/domain/pwa.ts"

interface Catalogue {
  readonly data: ReadonlyArray<{ slugName: string; leagues: ReadonlyArray<{ slugName: string; events: ReadonlyArray<{ slugName: string; inPlay: boolean }> }> }>
}

/** The path of the first cricket event in play (the demo always has one). */
const eventInPlay = async (base: string) => {
  const { data } = (await (await fetch(`${base}/api/v1/get-sports-data`)).json()) as Catalogue
  for (const sport of data) {
    for (const league of sport.leagues) {
      const event = league.events.find((e) => e.inPlay)
      if (event) return `/event?sport=${sport.slugName}&league=${league.slugName}&event=${event.slugName}`
    }
  }
  throw new Error("no event in play")
}

const server = await startServer()
const browser = await launchChromium()
try {
  const token = await demoToken(server.url)
  mkdirSync("public/screenshots", { recursive: true })
  for (const shot of SCREENSHOTS) {
    const narrow = shot.formFactor === "narrow"
    const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height }, isMobile: narrow, hasTouch: narrow, serviceWorkers: "block" })
    await context.addInitScript((t) => localStorage.setItem("token", t), token)
    const page = await context.newPage()
    await page.goto(`${server.url}${narrow ? await eventInPlay(server.url) : "/"}`)
    await page.getByTestId("preloader").waitFor({ state: "hidden", timeout: 30_000 })
    if (narrow) {
      // The event's first back price: the slip open under its market, a stake typed.
      await page.locator("[data-testid^='odds-'][data-testid$='-back-0']").first().click()
      await page.getByTestId("bet-slip").getByLabel("Stake (₹)").fill("500")
    }
    // Prices and banners settle, then the shot.
    await page.waitForTimeout(1500)
    // A palette PNG: a third of the size, indistinguishable at an install sheet's scale.
    await sharp(await page.screenshot()).png({ palette: true, quality: 90, effort: 10 }).toFile(join("public", shot.src))
    await context.close()
    console.log(`${shot.src}: ${shot.width}x${shot.height}`)
  }
} finally {
  await browser.close()
  await server.stop()
}
