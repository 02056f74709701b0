import { useSelector } from "@xstate/react"
import { useLocation, useSearchParams } from "react-router"
import { findEvent } from "../../domain/catalogue.ts"
import { findRace } from "../../domain/racing.ts"
import { isRacing } from "../../domain/sports.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { AppActor } from "../app-actor.ts"
import { useEventBets } from "../bets.ts"
import { useFlow } from "../flows.ts"
import { useUser } from "../session.ts"
import { BetGroups } from "../widgets/BetsTable.tsx"
import { RightBarCasino } from "../widgets/CasinoSlider.tsx"
import { Icon } from "../widgets/Icon.tsx"
import { ScoreBoard } from "../widgets/LiveScore.tsx"

/** The event on screen: /event by its slugs, /racing by its event id. */
const useCurrentEvent = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const { pathname } = useLocation()
  const [params] = useSearchParams()
  if (pathname === "/racing") return findRace(sports, params.get("event"))
  return findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")
}

const PromoVideo = () => (
  <figure className="m-0">
    <video className="block aspect-video w-full rounded-md bg-black" src="/promo.webm" autoPlay muted loop playsInline aria-label="Khel: live odds on every ball" data-testid="promo-video" />
    <figcaption className="mt-1 text-xs text-muted">Log in to watch the live score and TV.</figcaption>
  </figure>
)

/** Score / Tv toggles and a collapse button over the live score or the TV frame: the `livePanel` flow of the event. */
const LivePanel = ({ eventId }: { eventId: string }) => {
  const panel = useFlow("livePanel", { input: { eventId } })
  return panel ? <LivePanelView panel={panel} /> : null
}

const LivePanelView = ({ panel }: { panel: FlowRef<"livePanel"> }) => {
  const state = useSelector(panel, (s) => (s.matches("Score") ? "score" : s.matches("Tv") ? "tv" : "closed"))
  const score = useSelector(panel, (s) => s.context.score)
  const toggle = (which: "score" | "tv") => (
    <button
      type="button"
      aria-pressed={state === which}
      onClick={() => panel.send({ type: which === "score" ? "panel.score" : "panel.tv" })}
      className={`inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-700 ${state === which ? "bg-brand text-brand-fg" : "bg-raised text-fg"}`}
    >
      <Icon name={which === "score" ? "score" : "tv"} className="h-3.5 w-3.5" /> {which === "score" ? "Score" : "Tv"}
    </button>
  )
  return (
    <div data-testid="live-panel" data-state={state}>
      <div className="flex items-center gap-2">
        {toggle("score")}
        {toggle("tv")}
        <button type="button" className="ml-auto rounded p-1 text-muted hover:text-fg" aria-label={state === "closed" ? "Live panel collapsed" : "Collapse live panel"} aria-expanded={state !== "closed"}
          disabled={state === "closed"} onClick={() => panel.send({ type: "panel.collapse" })}>
          <Icon name="chevronDown" className={`h-4 w-4 transition-transform ${state === "closed" ? "-rotate-90" : ""}`} />
        </button>
      </div>
      {state === "score" ? <ScoreBoard score={score} /> : null}
      {state === "tv" ? (
        <video className="mt-2 block aspect-video w-full rounded-md bg-black" src="/promo.webm" autoPlay muted loop playsInline aria-label="Live TV (demo stream)" />
      ) : null}
    </div>
  )
}

/** The right sidebar on /event and /racing: live score / TV (not for racing) and My Bets for the event. */
const RightSidebar = () => {
  const user = useUser()
  const current = useCurrentEvent()
  const bets = useEventBets(current?.event._id)
  const racing = current ? isRacing(current.sport) : true
  return (
    <div className="sticky top-[4.5rem] flex flex-col gap-3">
      {!racing ? (
        <section className="card p-3" aria-label="Live score and TV">
          {user && current ? <LivePanel key={current.event._id} eventId={current.event._id} /> : <PromoVideo />}
        </section>
      ) : null}
      <section className="card p-3" aria-labelledby="sidebar-my-bets">
        <h2 id="sidebar-my-bets" className="m-0 mb-2 text-sm font-700">My Bets</h2>
        {user ? <BetGroups bets={bets ?? []} /> : <p className="m-0 text-sm text-muted">Log in to see your bets.</p>}
      </section>
      <RightBarCasino />
    </div>
  )
}

export default RightSidebar
