import { useDeferredValue } from "react"
import { allEvents, sidebarSports } from "../../domain/catalogue.ts"
import { AppActor } from "../app-actor.ts"
import { BannerSlider } from "../widgets/BannerSlider.tsx"
import { EventList } from "../widgets/EventList.tsx"
import { SportChips } from "../widgets/SportChips.tsx"


/** Home: banners, sport chips, what is in play and what starts next. */
export const Home = () => {
  // Deferred: the lists render as a transition, in slices, not in the task that brings the sports (the preloader
  // covers the page for a second after them, SPEC section 9).
  const sports = useDeferredValue(AppActor.useSelector((s) => s.context.sports))
  // The lists wait for the sports (or for the start-up to give up on them): empty lists that fill later would
  // push the page about (layout shift) while the preloader still covers it.
  const ready = useDeferredValue(AppActor.useSelector((s) => s.context.sportsLoaded || !s.hasTag("preloader")))
  const events = allEvents(sidebarSports(sports))
  const inPlay = events.filter((entry) => entry.event.inPlay)
  const upcoming = events.filter((entry) => !entry.event.inPlay).slice(0, 12)
  return (
    <div className="flex flex-col gap-4">
      <BannerSlider />
      {ready ? (
        <>
          <SportChips />
          <section aria-labelledby="home-inplay">
            <h1 id="home-inplay" className="page-title m-0 mb-2 flex items-center gap-2">
              <span className="h-2 w-2 animate-pulse rounded-full bg-ok" aria-hidden="true" /> In-Play
            </h1>
            <EventList entries={inPlay} empty="Nothing is in play right now." />
          </section>
          <section aria-labelledby="home-upcoming">
            <h2 id="home-upcoming" className="page-title m-0 mb-2">Starting soon</h2>
            <EventList entries={upcoming} empty="No upcoming events." />
          </section>
        </>
      ) : null}
    </div>
  )
}
