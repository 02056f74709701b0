import { describe, expect, it } from "vitest"
import type { Sport } from "../../src/schema/sports.ts"
import { pageTitle } from "../../src/views/titles.ts"

const event = (id: string, name: string, slugName: string) =>
  ({ _id: id, id, name, slugName, date: "2026-11-22T14:00:00.000Z", sportCode: "4", inPlay: false, markets: [] }) as unknown as Sport["leagues"][number]["events"][number]

const sports = [
  { _id: "s1", name: "Cricket", slugName: "cricket", sportsCode: "4", leagues: [{ _id: "l1", name: "IPL", slugName: "indian-premier-league", events: [event("e1", "India v Australia", "india-v-australia")] }] },
  { _id: "s7", name: "Horse Racing", slugName: "horse-racing", sportsCode: "7", leagues: [{ _id: "t1", name: "Ascot", slugName: "ascot", events: [event("r1", "Ascot Stakes", "ascot-stakes")] }] }
] as unknown as ReadonlyArray<Sport>

const title = (path: string, site = "Khel") => {
  const url = new URL(path, "http://khel.test")
  return pageTitle(url.pathname, url.searchParams, sports, site)
}

describe("document titles", () => {
  it("names each route, with the site's title after it", () => {
    expect(title("/")).toBe("Khel")
    expect(title("/inplay")).toBe("In-Play — Khel")
    expect(title("/statements", "Khel - Sports Exchange & Live Casino")).toBe("Account Statements — Khel - Sports Exchange & Live Casino")
    expect(title("/terms-&-conditions")).toBe("Terms & Conditions — Khel")
    expect(title("/nowhere")).toBe("Page not found — Khel")
  })

  it("names the event or race on screen", () => {
    expect(title("/event?sport=cricket&league=indian-premier-league&event=india-v-australia")).toBe("India v Australia — Khel")
    expect(title("/event?sport=cricket&league=indian-premier-league&event=gone")).toBe("Event — Khel")
    expect(title("/racing?sport=horse-racing&event=r1")).toBe("Ascot Stakes — Khel")
    expect(title("/racing?sport=horse-racing")).toBe("Horse Racing — Khel")
  })

  it("gives every route of the site its own title", () => {
    const routes = ["/", "/sports", "/inplay", "/racing", "/live-casino", "/slots", "/sa-casino", "/deposit", "/withdrawal", "/bonus", "/referral-bonus",
      "/statements", "/profit-loss", "/terms-&-conditions", "/privacy-policy", "/responsible-gambling", "/about", "/login"]
    expect(new Set(routes.map((route) => title(route))).size).toBe(routes.length)
  })
})
