import { type APIRequestContext, expect } from "@playwright/test"
import { apiLogin, sportsData } from "./support.ts"

/**
 * Settles a race no other test watches (the last to start of the horse races not in play: /racing opens on the
 * next one) with its first runner winning, through the operator's settle endpoint. Each call settles another
 * (a settled market leaves the catalogue).
 */
export const settleARace = async (request: APIRequestContext) => {
  const racing = (await sportsData(request)).find((sport) => sport.slugName === "horse-racing")!
  const races = racing.leagues.flatMap((league) => league.events).filter((event) => !event.inPlay && event.markets.length > 0)
  const race = races.sort((a, b) => (a.date < b.date ? 1 : -1))[0]!
  const market = race.markets[0]!
  const admin = await apiLogin(request, "admin")
  const settled = await request.post("/api/v1/admin/settle-market", {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { marketId: market.marketId, result: market.runners[0]!.selectionId }
  })
  expect(settled.status()).toBe(200)
  return { race, market, winner: market.runners[0]!.name }
}
