import { GAME_IMAGE } from "../../domain/casino.ts"
import type { CasinoGame } from "../../schema/casino.ts"
import { Icon } from "./Icon.tsx"
import { fallbackToLoader } from "./slider-images.ts"

/**
 * A game: its artwork (320x200; lazy unless it is among the first on
 * screen; the loader picture if it fails), title, provider badge and a play
 * overlay on hover and focus. The whole card is one button.
 */
export const GameCard = ({ game, eager = false, busy = false, onPlay }: {
  game: CasinoGame
  /** Above the fold: fetched at once, not lazily. */
  eager?: boolean
  busy?: boolean
  onPlay: (game: CasinoGame) => void
}) => (
  <button
    type="button"
    onClick={() => onPlay(game)}
    aria-label={`Play ${game.title} by ${game.provider_name}`}
    aria-busy={busy || undefined}
    data-testid="game-card"
    className="group block w-full overflow-hidden rounded-lg border border-line bg-surface p-0 text-left text-fg transition-transform hover:-translate-y-0.5 focus-visible:(outline-2 outline-brand outline-offset-2)"
  >
    <span className="relative block aspect-[320/200] bg-raised">
      <img
        src={game.game_images}
        alt=""
        width={GAME_IMAGE.width}
        height={GAME_IMAGE.height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        onError={fallbackToLoader}
        className="block h-full w-full object-cover"
      />
      <span className="absolute left-1.5 top-1.5 rounded bg-black/70 px-1.5 py-0.5 text-[10px] font-700 uppercase tracking-wide text-white">
        {game.provider_name}
      </span>
      <span
        className={`absolute inset-0 flex items-center justify-center bg-black/55 transition-opacity ${busy ? "opacity-100" : "opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100"}`}
        aria-hidden="true"
      >
        <span className="flex items-center gap-1.5 rounded-full bg-brand px-3 py-1.5 text-xs font-700 text-brand-fg">
          {busy ? <span className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-brand-fg/40 border-t-brand-fg" /> : <Icon name="play" size={14} />}
          {busy ? "Opening" : "Play"}
        </span>
      </span>
    </span>
    {/* Up to two lines, always two lines tall (2lh: whatever the line height at this width): a long title fits, cards stay aligned. */}
    <span className="line-clamp-2 h-[calc(2lh+0.75rem)] px-2 py-1.5 text-xs font-600 leading-tight sm:text-sm" data-testid="game-title">{game.title}</span>
  </button>
)
