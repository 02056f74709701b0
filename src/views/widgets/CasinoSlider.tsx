import { useSelector } from "@xstate/react"
import { Suspense } from "react"
import { Link } from "react-router"
import { RIGHT_BAR_CASINO_AUTOPLAY_MS } from "../../domain/casino.ts"
import type { FlowRef } from "../../machines/flows.ts"
import type { CasinoGame } from "../../schema/casino.ts"
import { useFlow } from "../flows.ts"
import { useUser } from "../session.ts"
import { GameCard } from "./GameCard.tsx"
import { useIdleAfterStart } from "./idle.tsx"
import { LazySlider } from "./LazySlider.ts"
import type { SlideCounts } from "./Slider.tsx"


/** Slides per view at 0, 500 and 992 px (SPEC section 9) in the narrow side panels. */
export const PANEL_COUNTS: SlideCounts = { base: 1, sm: 2, lg: 2 }

const SHOWN = 12

/**
 * Game cards in a swiper that autoplays (pausing on hover). Until the site
 * has started and the browser is idle (and the carousel code has loaded),
 * the first cards show as a plain row.
 */
export const CasinoSlider = ({ games, autoplayMs, counts, label, launching, onPlay }: {
  games: ReadonlyArray<CasinoGame>
  autoplayMs: number
  counts: SlideCounts
  label: string
  launching: string | undefined
  onPlay: (game: CasinoGame) => void
}) => {
  const card = (game: CasinoGame, index: number) => (
    <GameCard game={game} eager={index < counts.lg} busy={launching === game._id} onPlay={onPlay} />
  )
  const fallback = (
    <div className="grid gap-2" style={{ gridTemplateColumns: `repeat(${counts.lg}, minmax(0, 1fr))` }}>
      {games.slice(0, counts.lg).map((game, i) => <div key={game._id}>{card(game, i)}</div>)}
    </div>
  )
  const idle = useIdleAfterStart()
  return (
    <div className="[&_.swiper]:pb-6" data-testid="casino-slider" data-autoplay={autoplayMs}>
      {idle ? (
        <Suspense fallback={fallback}>
          <LazySlider label={label} items={games} keyOf={(game) => game._id} autoplayMs={autoplayMs} counts={counts} render={card} />
        </Suspense>
      ) : fallback}
    </div>
  )
}

/**
 * A side panel of live-casino games with its own lobby flow (`casino.panel`):
 * the Top Casino panel on / and the casino slider of the right sidebar.
 */
export const CasinoPanel = (props: { title: string; autoplayMs: number; headingId: string }) => {
  const casino = useFlow("casino", { id: "casino.panel", input: { lobby: "live" } })
  return casino ? <CasinoPanelView {...props} casino={casino} /> : null
}

const CasinoPanelView = ({ title, autoplayMs, headingId, casino }: { title: string; autoplayMs: number; headingId: string; casino: FlowRef<"casino"> }) => {
  const games = useSelector(casino, (s) => s.context.games)
  const loading = useSelector(casino, (s) => s.hasTag("loading"))
  const failed = useSelector(casino, (s) => s.hasTag("failed"))
  const launching = useSelector(casino, (s) => (s.hasTag("launching") ? s.context.game?._id : undefined))
  const signedIn = useUser() !== undefined
  return (
    <section className="card p-3" aria-labelledby={headingId}>
      <div className="mb-2 flex items-center justify-between">
        <h2 id={headingId} className="m-0 text-sm font-700">{title}</h2>
        <Link to="/live-casino" className="text-xs text-brand hover:underline">View all</Link>
      </div>
      {loading ? (
        <div className="aspect-[320/200] animate-pulse rounded-md bg-raised" role="status" aria-label="Loading games" />
      ) : failed ? (
        <p className="m-0 flex items-center justify-between gap-2 text-sm text-muted">
          Games could not be loaded.
          <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => casino.send({ type: "games.reload" })}>Retry</button>
        </p>
      ) : (
        <CasinoSlider
          games={games.slice(0, SHOWN)}
          autoplayMs={autoplayMs}
          counts={PANEL_COUNTS}
          label={title}
          launching={launching}
          onPlay={(game) => casino.send({ type: "game.launch", game, signedIn })}
        />
      )}
    </section>
  )
}

/** The right sidebar's casino slider (3 s autoplay). */
export const RightBarCasino = () => <CasinoPanel title="Casino" autoplayMs={RIGHT_BAR_CASINO_AUTOPLAY_MS} headingId="right-bar-casino" />
