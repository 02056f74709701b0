import { useSelector } from "@xstate/react"
import type { FlowRef } from "../../machines/flows.ts"
import type { Score } from "../../schema/betting.ts"

/** The score, or while it is on its way a note in a box of the same two lines (nothing moves when it comes). */
export const ScoreBoard = ({ score }: { score: Score | undefined }) =>
  score ? (
    <div className="mt-2 rounded-md bg-raised px-3 py-2 text-sm" data-testid="live-score" aria-live="polite">
      <div className="flex items-center justify-between gap-2">
        <span className="font-700">{score.home}</span>
        <span className="text-xs text-muted">{score.clock}</span>
      </div>
      <div className="flex items-center justify-between gap-2">
        <span className="font-700">{score.away}</span>
        <span className="text-xs font-700 text-ok">{score.summary}</span>
      </div>
    </div>
  ) : (
    <div className="mt-2 rounded-md bg-raised px-3 py-2 text-sm">
      <p className="m-0 text-xs leading-10 text-muted">Waiting for the live score…</p>
    </div>
  )

/** The score of the event a `liveEvent` flow watches. */
export const LiveScore = ({ live }: { live: FlowRef<"liveEvent"> }) => <ScoreBoard score={useSelector(live, (s) => s.context.score)} />
