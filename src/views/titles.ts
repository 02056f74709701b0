import { findEvent } from "../domain/catalogue.ts"
import { findRace } from "../domain/racing.ts"
import type { Sport } from "../schema/sports.ts"

/** What each route is called in the browser's tab and history (SPEC section 2's routes). */
const ROUTE_TITLES: Readonly<Record<string, string>> = {
  "/sports": "Sports",
  "/inplay": "In-Play",
  "/racing": "Racing",
  "/results": "Results",
  "/live-casino": "Live Casino",
  "/slots": "Slots",
  "/sa-casino": "SA Gaming",
  "/deposit": "Deposit",
  "/withdrawal": "Withdrawal",
  "/bonus": "Bonus",
  "/referral-bonus": "Referral Bonus",
  "/statements": "Account Statements",
  "/profit-loss": "Profit And Loss",
  "/terms-&-conditions": "Terms & Conditions",
  "/privacy-policy": "Privacy Policy",
  "/responsible-gambling": "Responsible Gambling",
  "/about": "About Us",
  "/login": "Login"
}

/**
 * The document title of a route: "In-Play — Khel", the event's or race's name on /event and /racing, the site's
 * own title on the home page, "Page not found — Khel" elsewhere.
 */
export const pageTitle = (pathname: string, params: URLSearchParams, sports: ReadonlyArray<Sport>, site: string) => {
  const name = (() => {
    if (pathname === "/") return undefined
    if (pathname === "/event") return findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")?.event.name ?? "Event"
    if (pathname === "/racing") {
      const race = findRace(sports, params.get("event"))
      return race?.event.name ?? sports.find((sport) => sport.slugName === params.get("sport"))?.name ?? ROUTE_TITLES[pathname]
    }
    return ROUTE_TITLES[pathname] ?? "Page not found"
  })()
  return name === undefined ? site : `${name} — ${site}`
}
