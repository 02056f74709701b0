import type { Event, League, Sport } from "../schema/sports.ts"
import { byDate } from "./dates.ts"
import { matchesSearch } from "./search.ts"
import { isRacing } from "./sports.ts"

export const leagueEventCount = (league: Pick<League, "events">) => league.events.length
export const sportEventCount = (sport: Pick<Sport, "leagues">) => sport.leagues.reduce((n, league) => n + league.events.length, 0)

/** Sports shown in the sidebar and chip strip: racing has its own pages. */
export const sidebarSports = (sports: ReadonlyArray<Sport>) => sports.filter((sport) => !isRacing(sport))

/**
 * The part of the catalogue that matches a search, by name or slug, ignoring
 * spaces and case. A matching sport keeps all its leagues; a matching league
 * keeps all its events; otherwise only matching events stay.
 */
export const searchCatalogue = (sports: ReadonlyArray<Sport>, query: string): Array<Sport> => {
  if (query.trim() === "") return [...sports]
  const result: Array<Sport> = []
  for (const sport of sports) {
    if (matchesSearch(query, sport.name, sport.slugName)) {
      result.push(sport)
      continue
    }
    const leagues: Array<League> = []
    for (const league of sport.leagues) {
      if (matchesSearch(query, league.name, league.slugName)) {
        leagues.push(league)
        continue
      }
      const events = league.events.filter((event) => matchesSearch(query, event.name, event.slugName))
      if (events.length > 0) leagues.push({ ...league, events })
    }
    if (leagues.length > 0) result.push({ ...sport, leagues })
  }
  return result
}

/** The link of an event page: /event?sport=&league=&event= (slugs). */
export const eventHref = (sport: Pick<Sport, "slugName">, league: Pick<League, "slugName">, event: Pick<Event, "slugName">) =>
  `/event?${new URLSearchParams({ sport: sport.slugName, league: league.slugName, event: event.slugName })}`

export interface EventEntry {
  readonly sport: Sport
  readonly league: League
  readonly event: Event
}

/** Every event with its sport and league, soonest first. */
export const allEvents = (sports: ReadonlyArray<Sport>): Array<EventEntry> =>
  sports
    .flatMap((sport) => sport.leagues.flatMap((league) => league.events.map((event) => ({ sport, league, event }))))
    .sort((a, b) => byDate(a.event.date, b.event.date))

/** Looks an event up by its three slugs. */
export const findEvent = (sports: ReadonlyArray<Sport>, sportSlug: string, leagueSlug: string, eventSlug: string): EventEntry | undefined => {
  const sport = sports.find((s) => s.slugName === sportSlug)
  const league = sport?.leagues.find((l) => l.slugName === leagueSlug)
  const event = league?.events.find((e) => e.slugName === eventSlug)
  return sport && league && event ? { sport, league, event } : undefined
}

/** The market the event lists show prices of: Match Odds (1 and 2, or 1 X 2 where a draw is a runner). */
export const listMarketOf = (event: Pick<Event, "markets">) =>
  event.markets.find((market) => market.marketType === "EXCHANGE" && market.name === "Match Odds")

/** A price picked in a list, carried to the event page (as the navigation's state) to open the slip on it. */
export interface ListPick {
  readonly marketId: string
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly price: number
  readonly size: number
}
