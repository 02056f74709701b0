import { useSearchParams } from "react-router"
import { findEvent } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { AppActor } from "../app-actor.ts"

/** /event?sport=&league=&event=: the event and its markets. */
const EventPage = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const loading = AppActor.useSelector((s) => s.hasTag("preloader"))
  const [params] = useSearchParams()
  const entry = findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")
  if (!entry) {
    return <p className="card m-0 p-6 text-center text-muted">{loading ? "Loading…" : "This event is not available. It may have finished."}</p>
  }
  const { league, event } = entry
  return (
    <div className="flex flex-col gap-3">
      <header className="card p-4">
        <p className="m-0 text-xs text-muted">{league.name}</p>
        <h1 className="page-title m-0">{event.name}</h1>
        <p className="m-0 text-sm text-muted">{event.inPlay ? <span className="font-700 text-ok">In-Play</span> : eventDateLabel(event.date)}</p>
      </header>
      {event.markets.map((market) => (
        <section key={market._id} className="card overflow-hidden" aria-labelledby={`market-${market._id}`}>
          <h2 id={`market-${market._id}`} className="m-0 flex items-center justify-between bg-raised px-3 py-2 text-sm font-700">
            {market.name}
            <span className="text-xs font-500 text-muted">{market.marketType.toLowerCase()}</span>
          </h2>
          <ul className="m-0 list-none divide-y divide-line p-0">
            {market.runners.map((runner) => (
              <li key={runner.selectionId} className="px-3 py-2">{runner.name}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

export default EventPage
