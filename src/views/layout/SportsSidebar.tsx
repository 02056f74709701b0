import { useMemo, useState } from "react"
import { Link } from "react-router"
import { eventHref, leagueEventCount, searchCatalogue, sidebarSports, sportEventCount } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { AppActor } from "../app-actor.ts"
import { Icon, sportIcon } from "../widgets/Icon.tsx"

/** Search plus sport -> league -> event accordions, with counts (racing is not listed here), then the results. */
export const SportsSidebar = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const [query, setQuery] = useState("")
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set())
  const visible = useMemo(() => searchCatalogue(sidebarSports(sports), query), [sports, query])
  const searching = query.trim() !== ""
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <div className="card sticky top-[4.5rem] max-h-[calc(100vh-5.5rem)] overflow-y-auto">
      <div className="border-b border-line p-2">
        <label className="relative block">
          <span className="sr-only">Search sports, leagues and events</span>
          <Icon name="search" size={16} className="absolute left-2.5 top-2.5 text-muted" />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search events"
            className="field pl-8 py-1.5"
          />
        </label>
      </div>
      {visible.length === 0 ? (
        <p className="m-0 p-4 text-center text-muted" role="status">No results</p>
      ) : (
        <ul className="m-0 list-none p-1">
          {visible.map((sport) => {
            const sportOpen = searching || open.has(sport._id)
            return (
              <li key={sport._id}>
                <button
                  type="button"
                  aria-expanded={sportOpen}
                  onClick={() => toggle(sport._id)}
                  className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left font-600 hover:bg-raised"
                >
                  <Icon name={sportIcon(sport.slugName)} className="text-brand" />
                  <span className="flex-1">{sport.name}</span>
                  <span className="chip py-0 text-muted" aria-label={`${sportEventCount(sport)} events`}>{sportEventCount(sport)}</span>
                  <Icon name="chevronDown" size={14} className={`transition-transform ${sportOpen ? "rotate-180" : ""}`} />
                </button>
                {sportOpen ? (
                  <ul className="m-0 list-none pl-3">
                    {sport.leagues.map((league) => {
                      const leagueOpen = searching || open.has(league._id)
                      return (
                        <li key={league._id}>
                          <button
                            type="button"
                            aria-expanded={leagueOpen}
                            onClick={() => toggle(league._id)}
                            className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-raised"
                          >
                            <span className="flex-1">{league.name}</span>
                            <span className="text-xs text-muted" aria-label={`${leagueEventCount(league)} events`}>{leagueEventCount(league)}</span>
                            <Icon name="chevronDown" size={12} className={`transition-transform ${leagueOpen ? "rotate-180" : ""}`} />
                          </button>
                          {leagueOpen ? (
                            <ul className="m-0 list-none pl-2">
                              {league.events.map((event) => (
                                <li key={event._id}>
                                  <Link to={eventHref(sport, league, event)} className="block rounded-md px-2 py-1.5 hover:bg-raised">
                                    <span className="block text-sm">{event.name}</span>
                                    <span className="flex items-center gap-1.5 text-xs text-muted">
                                      {event.inPlay ? <span className="font-700 text-ok">In-Play</span> : null}
                                      {eventDateLabel(event.date)}
                                    </span>
                                  </Link>
                                </li>
                              ))}
                            </ul>
                          ) : null}
                        </li>
                      )
                    })}
                  </ul>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
      <Link to="/results" className="flex items-center gap-2 border-t border-line px-3 py-2.5 font-600 hover:bg-raised">
        <Icon name="trophy" className="text-brand" />
        Results
      </Link>
    </div>
  )
}
