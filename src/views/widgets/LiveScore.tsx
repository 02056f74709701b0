import { useCallback, useSyncExternalStore } from "react"
import type { Score } from "../../schema/betting.ts"
import { odds } from "../../services/odds.ts"

/** An event's live score from the odds channel (the page already watches the event). */
export const useScore = (eventId: string) => {
  const subscribe = useCallback((listener: () => void) => odds.subscribeScore(eventId, listener), [eventId])
  const read = () => odds.score(eventId)
  return useSyncExternalStore(subscribe, read, read)
}

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
    <p className="m-0 mt-2 text-xs text-muted">Waiting for the live score…</p>
  )

export const LiveScore = ({ eventId }: { eventId: string }) => <ScoreBoard score={useScore(eventId)} />
