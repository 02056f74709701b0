import { useEffect, useRef, useState } from "react"
import { Link } from "react-router"
import { eventHref, type EventEntry, listMarketOf } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { loadable, useLoaded } from "../loadable.ts"
import { Icon, sportIcon } from "./Icon.tsx"
import { useStarted } from "./idle.tsx"
import { useProgressive } from "./progressive.ts"

const listPrices = loadable(() => import("./ListPrices.tsx").then((module) => module.default))

/** True while the element is on screen (or near it): rows off screen neither load nor watch prices. */
const useOnScreen = (element: React.RefObject<HTMLElement | null>, enabled: boolean) => {
  const [onScreen, setOnScreen] = useState(false)
  useEffect(() => {
    const target = element.current
    if (!enabled || !target || typeof IntersectionObserver === "undefined") return
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry?.isIntersecting ?? false), { rootMargin: "100px 0px" })
    observer.observe(target)
    return () => observer.disconnect()
  }, [element, enabled])
  return onScreen
}

/**
 * The prices' box, its size fixed from the first paint (2 or 3 runners × back and lay), so the cells arriving move
 * nothing. The cells come once the site has started and the row is on screen.
 */
const RowPrices = (entry: EventEntry) => {
  const runners = listMarketOf(entry.event)?.runners.length ?? 0
  const box = useRef<HTMLDivElement>(null)
  const started = useStarted()
  const onScreen = useOnScreen(box, started && runners > 0)
  useEffect(() => {
    if (onScreen) listPrices.load().catch(() => {})
  }, [onScreen])
  const Prices = useLoaded(listPrices)
  if (runners === 0) return null
  return (
    <div
      ref={box}
      data-testid={`list-prices-${entry.event._id}`}
      className={`grid shrink-0 gap-1 ${runners === 3 ? "grid-cols-3 w-[19.5rem]" : "grid-cols-2 w-[13rem]"} h-11`}
    >
      {onScreen && Prices ? <Prices {...entry} /> : null}
    </div>
  )
}

const EventRow = (entry: EventEntry) => {
  const { sport, league, event } = entry
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 hover:bg-raised sm:flex-nowrap">
      <Link to={eventHref(sport, league, event)} className="flex min-w-0 flex-1 basis-full items-center gap-3 sm:basis-auto">
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
      <RowPrices {...entry} />
    </li>
  )
}

/** A list of events with their sport, league, start, in-play state and live Match Odds; a long one renders a screenful at a time. */
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
