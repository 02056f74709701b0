import { type APIRequestContext, expect, type Page } from "./coverage.ts"
import { apiLogin, catalogueEvent } from "./support.ts"

/** What the installable app's specs share (tests/e2e/pwa.spec.ts, tests/e2e/pwa-app.spec.ts). */

/** The worker controls the page (the first one claims the page that registered it: src/sw.ts). */
export const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })

const FIXTURE = "Delhi Capitals v Rajasthan Royals"

/**
 * The fixture's match odds priced by hand and open, so a price is there to click whatever the simulator does;
 * `price(back)` moves its first runner's back price (the operator's price reaches pages over the odds channel).
 */
export const openPrices = async (request: APIRequestContext) => {
  const { event, path } = await catalogueEvent(request, FIXTURE)
  const market = (event as unknown as { markets: Array<{ marketId: string; marketType: string; runners: Array<{ selectionId: string }> }> }).markets
    .find((m) => m.marketType === "EXCHANGE")!
  const admin = await apiLogin(request, "admin")
  const price = async (back: number) => {
    const priced = await request.post("/api/v1/admin/market-price", {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, back: { price: back, size: 5000 }, lay: { price: back + 0.04, size: 5000 }, status: "OPEN" }
    })
    expect(priced.status()).toBe(200)
  }
  await price(2.2)
  return { path, market, price }
}
