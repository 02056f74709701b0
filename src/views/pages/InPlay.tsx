import { allEvents, sidebarSports } from "../../domain/catalogue.ts"
import { AppActor } from "../app-actor.ts"
import { EventList } from "../widgets/EventList.tsx"

/** /inplay: events in play now, grouped by sport (no chip strip here). */
const InPlay = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const groups = sidebarSports(sports)
    .map((sport) => ({ sport, entries: allEvents([sport]).filter((entry) => entry.event.inPlay) }))
    .filter((group) => group.entries.length > 0)
  return (
    <div className="flex flex-col gap-4">
      <h1 className="page-title m-0">In-Play</h1>
      {groups.length === 0 ? <p className="card m-0 p-6 text-center text-muted">Nothing is in play right now.</p> : null}
      {groups.map(({ sport, entries }) => (
        <section key={sport._id} aria-labelledby={`inplay-${sport._id}`}>
          <h2 id={`inplay-${sport._id}`} className="m-0 mb-2 text-sm font-700 text-muted">{sport.name}</h2>
          <EventList entries={entries} empty="" />
        </section>
      ))}
    </div>
  )
}

export default InPlay
