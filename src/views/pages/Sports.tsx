import { useSearchParams } from "react-router"
import { allEvents, sidebarSports } from "../../domain/catalogue.ts"
import { AppActor } from "../app-actor.ts"
import { EventList } from "../widgets/EventList.tsx"
import { useProgressive } from "../widgets/progressive.ts"
import { SportChips } from "../widgets/SportChips.tsx"

/** /sports: every sport's events, or one sport's with ?sport=slug. */
const Sports = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const [params] = useSearchParams()
  const slug = params.get("sport")
  const shown = sidebarSports(sports).filter((sport) => !slug || sport.slugName === slug)
  // A sport at a time: the first one fills a phone's screen, the others follow in later tasks.
  const rendered = useProgressive(shown.length, 1)
  return (
    <div className="flex flex-col gap-4">
      <SportChips />
      {shown.slice(0, rendered).map((sport) => (
        <section key={sport._id} aria-labelledby={`sport-${sport._id}`}>
          <h1 id={`sport-${sport._id}`} className="page-title m-0 mb-2">{sport.name}</h1>
          <EventList entries={allEvents([sport])} empty={`No ${sport.name} events right now.`} />
        </section>
      ))}
      {shown.length === 0 ? <p className="card m-0 p-6 text-center text-muted">No sports match.</p> : null}
    </div>
  )
}

export default Sports
