import { useSelector } from "@xstate/react"
import { Link, useSearchParams } from "react-router"
import { eventDateLabel } from "../../domain/dates.ts"
import { pickRace, racingHref } from "../../domain/racing.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"
import { EventBets } from "../widgets/EventPanels.tsx"
import { Fairness } from "../widgets/Fairness.tsx"
import { EventMarkets, useLiveEvent, usePagePanels } from "./Event.tsx"

/**
 * /racing: horse and greyhound racing, sport -> countries -> tracks ->
 * races; the chosen race (by default the next one) with its live prices.
 * The `racing` flow reloads the hierarchy when races start, finish or are
 * scheduled.
 */
const Racing = () => {
  const racing = useFlow("racing", { input: undefined })
  return racing ? <RacingView racing={racing} /> : null
}

const RacingView = ({ racing }: { racing: FlowRef<"racing"> }) => {
  const sports = useSelector(racing, (s) => s.context.sports)
  const loading = useSelector(racing, (s) => s.hasTag("loading"))
  const failed = useSelector(racing, (s) => s.hasTag("failed"))
  const [params] = useSearchParams()
  const chosen = pickRace(sports, {
    sport: params.get("sport") ?? undefined,
    country: params.get("country") ?? undefined,
    track: params.get("track") ?? undefined,
    event: params.get("event") ?? undefined
  })
  const live = useLiveEvent(chosen?.race?.event._id)
  const panels = usePagePanels()
  if (loading && sports.length === 0) return <p className="card m-0 p-6 text-center text-muted">Loading races…</p>
  if (failed) {
    return (
      <div className="card p-6 text-center">
        <p className="m-0 mb-3 text-muted">Races could not be loaded.</p>
        <button type="button" className="btn-brand" onClick={() => racing.send({ type: "racing.reload" })}>Try again</button>
      </div>
    )
  }
  if (!chosen) return <p className="card m-0 p-6 text-center text-muted">No races scheduled.</p>
  const { sport, race } = chosen
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label="Racing" className="flex gap-2">
        {sports.map((s) => (
          <Link
            key={s._id}
            to={racingHref(s.slugName)}
            aria-current={s === sport ? "page" : undefined}
            className={`chip py-1.5 text-sm ${s === sport ? "border-brand bg-brand text-brand-fg" : "bg-surface"}`}
          >
            {s.name}
          </Link>
        ))}
      </nav>
      <h1 className="page-title m-0">{sport.name}</h1>
      {sport.countries.map((country) => (
        <section key={country.id} className="card p-3" aria-labelledby={`country-${sport.slugName}-${country.id}`}>
          <h2 id={`country-${sport.slugName}-${country.id}`} className="m-0 mb-2 text-sm font-700">{country.name}</h2>
          {country.tracks.map((track) => (
            <div key={track._id} className="mb-2 flex flex-wrap items-center gap-2">
              <span className="w-32 shrink-0 truncate text-sm font-600">{track.name}</span>
              {track.events.map((event) => (
                <Link
                  key={event._id}
                  to={racingHref(sport.slugName, country.id, track.slugName, event._id)}
                  aria-current={race?.event._id === event._id ? "page" : undefined}
                  className={`chip py-1 ${race?.event._id === event._id ? "border-brand text-brand" : ""}`}
                >
                  {event.inPlay ? <span className="font-700 text-ok">Live</span> : eventDateLabel(event.date)}
                  <span className="sr-only"> {event.name}</span>
                </Link>
              ))}
            </div>
          ))}
        </section>
      ))}
      {race ? (
        <section aria-labelledby="race-title" className="flex flex-col gap-3">
          <header className="card p-4">
            <p className="m-0 text-xs text-muted">{race.country.name} · {race.track.name}</p>
            <h2 id="race-title" className="page-title m-0">{race.event.name}</h2>
            <p className="m-0 text-sm text-muted">{race.event.inPlay ? <span className="font-700 text-ok">In-Play</span> : eventDateLabel(race.event.date)}</p>
            <Fairness live={live} />
          </header>
          <EventMarkets
            sport={{ _id: sport._id, name: sport.name, slugName: sport.slugName, sportsCode: sport.sportsCode, leagues: [] }}
            league={{ _id: race.track._id, name: race.track.name, slugName: race.track.slugName, events: [] }}
            event={race.event}
            channel="racing"
            // No live score or TV for a race (SPEC section 2): only the player's bets on it.
            below={panels ? <EventBets eventId={race.event._id} /> : null}
          />
        </section>
      ) : null}
    </div>
  )
}

export default Racing
