import type { Event, RacingSport, Sport } from "../schema/sports.ts"
import { byDate } from "./dates.ts"
import { isRacing } from "./sports.ts"

/**
 * Racing look-ups (SPEC section 2: /racing by sport slug, country id, track
 * slug and event id), once for the racing page and the right sidebar.
 */

export interface RaceQuery {
  readonly sport?: string | undefined
  readonly country?: string | undefined
  readonly track?: string | undefined
  readonly event?: string | undefined
}

/** The link of a racing page. */
export const racingHref = (sport: string, country?: string, track?: string, event?: string) =>
  `/racing?${new URLSearchParams({ sport, ...(country ? { country } : {}), ...(track ? { track } : {}), ...(event ? { event } : {}) })}`

/** The racing sport a query names (horse racing unless it says otherwise), and its race: the one named, or the next. */
export const pickRace = (sports: ReadonlyArray<RacingSport>, query: RaceQuery) => {
  const sport = sports.find((s) => s.slugName === (query.sport ?? "horse-racing")) ?? sports[0]
  if (!sport) return undefined
  const tracks = sport.countries
    .filter((country) => !query.country || country.id === query.country)
    .flatMap((country) => country.tracks.map((track) => ({ country, track })))
    .filter(({ track }) => !query.track || track.slugName === query.track)
  const races = tracks.flatMap(({ country, track }) => track.events.map((event) => ({ country, track, event })))
  const race = races.find(({ event }) => event._id === query.event || event.id === query.event) ??
    [...races].sort((a, b) => byDate(a.event.date, b.event.date))[0]
  return { sport, race }
}

/** A race in the catalogue by its id (either id), with its sport and track. */
export const findRace = (sports: ReadonlyArray<Sport>, id: string | null): { sport: Sport; league: Sport["leagues"][number]; event: Event } | undefined => {
  for (const sport of sports.filter(isRacing)) {
    for (const league of sport.leagues) {
      const event = league.events.find((e) => e._id === id || e.id === id)
      if (event) return { sport, league, event }
    }
  }
  return undefined
}

/** Whether the racing hierarchy lists the race with this `_id`. */
export const listsRace = (sports: ReadonlyArray<RacingSport>, eventId: string) =>
  sports.some((sport) => sport.countries.some((country) => country.tracks.some((track) => track.events.some((event) => event._id === eventId))))
