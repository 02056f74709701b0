import { expect, test } from "./coverage.ts"

test("a real page visit reports its vitals with a beacon, loaded after the first paint", async ({ page }) => {
  await page.goto("/sports")
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
  // The reporter loads once the page has loaded and the browser is idle, and marks the timeline then.
  await page.waitForFunction(() => performance.getEntriesByName("khel:vitals-ready").length > 0, undefined, { timeout: 20_000 })
  const [paint, ready] = await page.evaluate(() => [
    performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    performance.getEntriesByName("khel:vitals-ready")[0]!.startTime
  ])
  expect(ready).toBeGreaterThan(paint)

  // The beacon goes when the page is hidden (the player switches app or tab). Headless Chromium never hides a
  // page, so the test says it is hidden the way the browser does: visibilityState and its event.
  const beacon = page.waitForRequest((request) => request.url().endsWith("/api/v1/vitals") && request.method() === "POST")
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" })
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }))
  })
  const request = await beacon
  // The body is a Blob (the browser does not show it here); the server's answer says it was a valid batch and is stored.
  expect(request.headers()["content-type"]).toBe("application/json")
  const response = await request.response()
  expect(response?.status()).toBe(200)
  expect(await response?.json()).toEqual({ meta: { code: 200, message: "Recorded" }, data: null })
})
