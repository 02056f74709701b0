import { useSelector } from "@xstate/react"
import type { FlowRef } from "../../machines/flows.ts"
import { useBetChanges, useEventBetsFlow } from "../bets.ts"
import { PROMO_POSTER } from "../firstPages.ts"
import { useFlow } from "../flows.ts"
import { useUser } from "../session.ts"
import { BetGroups } from "./BetsTable.tsx"
import { Icon } from "./Icon.tsx"
import { useIdleAfterStart } from "./idle.tsx"
import { ScoreBoard } from "./LiveScore.tsx"

/**
 * The panels of an event beside its markets (SPEC section 2): the live score and TV (a visitor sees the promo
 * video instead) and the player's bets on the event. The right sidebar shows them from 1280 px; below that the
 * event and racing pages show them around the markets.
 */

/**
 * The looping promo a visitor sees where a player has the score and TV. Its poster (the first frame, 4 KB) shows
 * from the first paint; the video loads once the page is idle, so the page's largest paint is not a late video.
 */
const PromoVideo = () => {
  const idle = useIdleAfterStart()
  return (
    <figure className="m-0">
      <div className="aspect-video w-full overflow-hidden rounded-md bg-black">
        <video className="block h-full w-full" poster={PROMO_POSTER} src={idle ? "/promo.webm" : undefined} preload="none" autoPlay muted loop playsInline
          aria-label="Khel: live odds on every ball" data-testid="promo-video" />
      </div>
      <figcaption className="mt-1 text-xs text-muted">Log in to watch the live score and TV.</figcaption>
    </figure>
  )
}

/** Score / Tv toggles and a collapse button over the live score or the TV frame: the `livePanel` flow of the event. */
const LivePanel = ({ eventId }: { eventId: string }) => {
  const panel = useFlow("livePanel", { input: { eventId } })
  return panel ? <LivePanelView panel={panel} /> : null
}

const LivePanelView = ({ panel }: { panel: FlowRef<"livePanel"> }) => {
  const state = useSelector(panel, (s) => (s.hasTag("score") ? "score" : s.hasTag("tv") ? "tv" : "closed"))
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
        <video className="mt-2 block aspect-video w-full rounded-md bg-black" src="/promo.webm" poster={PROMO_POSTER} autoPlay muted loop playsInline aria-label="Live TV (demo stream)" />
      ) : null}
    </div>
  )
}

/**
 * Live score and TV for a player, the promo video for a visitor. `collapsible`: on a phone, above the markets, the
 * visitor's promo folds away as the player's panel does (its collapse button).
 */
export const EventLive = ({ eventId, collapsible = false }: { eventId: string; collapsible?: boolean }) => {
  const signedIn = useUser() !== undefined
  if (signedIn) {
    return (
      <section className="card p-3" aria-label="Live score and TV">
        <LivePanel key={eventId} eventId={eventId} />
      </section>
    )
  }
  if (!collapsible) {
    return (
      <section className="card p-3" aria-label="Live score and TV">
        <PromoVideo />
      </section>
    )
  }
  return (
    <details open className="card p-3" aria-label="Live score and TV">
      <summary className="flex cursor-pointer list-none items-center gap-2 text-xs font-700 [&::-webkit-details-marker]:hidden">
        <Icon name="tv" className="h-3.5 w-3.5" /> Live score and TV
        <Icon name="chevronDown" className="fold-chevron ml-auto h-4 w-4 text-muted transition-transform" />
      </summary>
      <div className="mt-2">
        <PromoVideo />
      </div>
    </details>
  )
}

/** My Bets for the event (the `bets.<eventId>` flow the markets share), or a note for a visitor. */
export const EventBets = ({ eventId }: { eventId: string | undefined }) => {
  const signedIn = useUser() !== undefined
  const list = useEventBetsFlow(eventId)
  const bets = useSelector(list, (s) => s?.context.bets)
  const changes = useBetChanges(list)
  return (
    <section className="card p-3" aria-labelledby="event-my-bets">
      <h2 id="event-my-bets" className="m-0 mb-2 text-sm font-700">My Bets</h2>
      {signedIn ? <BetGroups bets={bets ?? []} changes={changes} /> : <p className="m-0 text-sm text-muted">Log in to see your bets.</p>}
    </section>
  )
}
