import { useLocation, useSearchParams } from "react-router"
import { findEvent } from "../../domain/catalogue.ts"
import { findRace } from "../../domain/racing.ts"
import { isRacing } from "../../domain/sports.ts"
import { AppActor } from "../app-actor.ts"
import { RightBarCasino } from "../widgets/CasinoSlider.tsx"
import { EventBets, EventLive } from "../widgets/EventPanels.tsx"

/** The event on screen: /event by its slugs, /racing by its event id. */
const useCurrentEvent = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const { pathname } = useLocation()
  const [params] = useSearchParams()
  if (pathname === "/racing") return findRace(sports, params.get("event"))
  return findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")
}

/** The right sidebar on /event and /racing: live score / TV (not for racing) and My Bets for the event. */
const RightSidebar = () => {
  const current = useCurrentEvent()
  const racing = current ? isRacing(current.sport) : true
  return (
    <div className="sticky top-[4.5rem] flex flex-col gap-3">
      {!racing && current ? <EventLive eventId={current.event._id} /> : null}
      <EventBets eventId={current?.event._id} />
      <RightBarCasino />
    </div>
  )
}

export default RightSidebar
