import { Link } from "react-router"
import { eventHref, type EventEntry } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { Icon, sportIcon } from "./Icon.tsx"
import { useProgressive } from "./progressive.ts"

const EventRow = ({ sport, league, event }: EventEntry) => (
  <li>
    <Link to={eventHref(sport, league, event)} className="flex items-center gap-3 px-3 py-2.5 hover:bg-raised">
      <Icon name={sportIcon(sport.slugName)} className="shrink-0 text-muted" />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-600">{event.name}</span>
        <span className="block truncate text-xs text-muted">{league.name}</span>
      </span>
      {event.inPlay ? (
        <span className="inline-flex items-center gap-1 rounded bg-ok/15 px-2 py-0.5 text-xs font-700 text-ok">
          <span className="h-1.5 w-1.5 animate-pulse rounded-full bg-ok" aria-hidden="true" /> In-Play
        </span>
      ) : (
        <span className="whitespace-nowrap text-xs text-muted">{eventDateLabel(event.date)}</span>
      )}
    </Link>
  </li>
)

/** A list of events with their sport, league, start and in-play state; a long one renders a screenful at a time. */
export const EventList = ({ entries, empty }: { entries: ReadonlyArray<EventEntry>; empty: string }) => {
  const rendered = useProgressive(entries.length)
  return entries.length === 0 ? (
    <p className="card m-0 p-6 text-center text-muted">{empty}</p>
  ) : (
    <ul className="card m-0 list-none divide-y divide-line p-0">
      {entries.slice(0, rendered).map((entry) => <EventRow key={entry.event._id} {...entry} />)}
    </ul>
  )
}
