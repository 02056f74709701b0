import { useSelector } from "@xstate/react"
import { categoryStrip, inCategory, type Lobby } from "../../domain/casino.ts"
import type { FlowRef } from "../../machines/flows.ts"
import type { CasinoGame } from "../../schema/casino.ts"
import { useFlow } from "../flows.ts"
import { useUser } from "../session.ts"
import { CasinoBets } from "../widgets/CasinoBets.tsx"
import { CategoryStrip } from "../widgets/CategoryStrip.tsx"
import { GameCard } from "../widgets/GameCard.tsx"
import { useProgressive } from "../widgets/progressive.ts"

const TITLES: Record<Lobby, string> = { live: "Live Casino", slots: "Slots", sa: "SA Gaming" }

/** Cards fetched at once: about the first two rows on a phone, the first row on a wide screen. */
const EAGER = 4

/** A category's games, a screenful at a time (a new category starts again from its first cards). */
const GameGrid = ({ label, games, launching, onPlay }: {
  label: string
  games: ReadonlyArray<CasinoGame>
  launching: string | undefined
  onPlay: (game: CasinoGame) => void
}) => {
  const rendered = useProgressive(games.length)
  return (
    <ul className="m-0 grid list-none grid-cols-2 gap-3 p-0 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5" aria-label={label}>
      {games.slice(0, rendered).map((game, index) => (
        <li key={game._id}>
          <GameCard game={game} eager={index < EAGER} busy={launching === game._id} onPlay={onPlay} />
        </li>
      ))}
    </ul>
  )
}

/** A lobby's `casino` flow, `casino.<lobby>`. */
const LobbyPage = ({ lobby }: { lobby: Lobby }) => {
  const casino = useFlow("casino", { id: `casino.${lobby}`, input: { lobby } })
  return casino ? <LobbyView lobby={lobby} casino={casino} /> : null
}

const LobbyView = ({ lobby, casino }: { lobby: Lobby; casino: FlowRef<"casino"> }) => {
  const games = useSelector(casino, (s) => s.context.games)
  const category = useSelector(casino, (s) => s.context.category)
  const loading = useSelector(casino, (s) => s.hasTag("loading"))
  const failed = useSelector(casino, (s) => s.hasTag("failed"))
  const launching = useSelector(casino, (s) => (s.hasTag("launching") ? s.context.game?._id : undefined))
  const user = useUser()
  const categories = categoryStrip(games)
  const shown = inCategory(games, category)
  return (
    // At least a screen tall, so the footer never starts in view and jumps down when the games arrive.
    <div className="flex min-h-[calc(100vh-3.5rem)] flex-col gap-3">
      <h1 className="page-title m-0">{TITLES[lobby]}</h1>
      {loading ? (
        <div className="flex flex-col gap-3" role="status" aria-label="Loading games">
          <div className="h-[30px] w-2/3 animate-pulse rounded-full bg-raised" />
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
            {Array.from({ length: 10 }, (_, i) => <div key={i} className="aspect-[320/230] animate-pulse rounded-lg bg-raised" />)}
          </div>
        </div>
      ) : failed ? (
        <div className="card flex flex-col items-center gap-3 p-6 text-center">
          <p className="m-0 text-muted">The games could not be loaded.</p>
          <button type="button" className="btn-brand" onClick={() => casino.send({ type: "games.reload" })}>Try again</button>
        </div>
      ) : games.length === 0 ? (
        <p className="card m-0 p-6 text-center text-muted">No games to show yet.</p>
      ) : (
        <>
          <CategoryStrip categories={categories} selected={category} onSelect={(c) => casino.send({ type: "category.select", category: c })} />
          <GameGrid key={category} label={`${category}: ${shown.length} games`} games={shown} launching={launching}
            onPlay={(game) => casino.send({ type: "game.launch", game, signedIn: user !== undefined })} />
        </>
      )}
      {user ? <CasinoBets lobby={lobby} /> : null}
    </div>
  )
}

/** /live-casino, /slots and /sa-casino: each lobby gets its own flow (a new one when the route changes). */
const Casino = ({ lobby }: { lobby: Lobby }) => <LobbyPage key={lobby} lobby={lobby} />

export default Casino
