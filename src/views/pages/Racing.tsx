import { Link, useSearchParams } from "react-router"
import { eventDateLabel } from "../../domain/dates.ts"
import { isRacing } from "../../domain/sports.ts"
import { AppActor } from "../app-actor.ts"

/** /racing: horse and greyhound racing by track; ?sport= picks the sport. */
const Racing = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const [params] = useSearchParams()
  const racing = sports.filter(isRacing)
  const current = racing.find((sport) => sport.slugName === (params.get("sport") ?? "horse-racing")) ?? racing[0]
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label="Racing" className="flex gap-2">
        {racing.map((sport) => (
          <Link
            key={sport._id}
            to={`/racing?sport=${sport.slugName}`}
            aria-current={sport === current ? "page" : undefined}
            className={`chip py-1.5 text-sm ${sport === current ? "border-brand bg-brand text-brand-fg" : "bg-surface"}`}
          >
            {sport.name}
          </Link>
        ))}
      </nav>
      <h1 className="page-title m-0">{current?.name ?? "Racing"}</h1>
      {current?.leagues.map((track) => (
        <section key={track._id} className="card p-3" aria-labelledby={`track-${track._id}`}>
          <h2 id={`track-${track._id}`} className="m-0 mb-2 text-sm font-700">{track.name}</h2>
          <ul className="m-0 flex list-none flex-wrap gap-2 p-0">
            {track.events.map((race) => (
              <li key={race._id} className="chip py-1">
                {race.name} · {eventDateLabel(race.date)}
              </li>
            ))}
          </ul>
        </section>
      )) ?? <p className="card m-0 p-6 text-center text-muted">No races scheduled.</p>}
    </div>
  )
}

export default Racing
