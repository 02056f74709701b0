import { odds } from "../services/odds.ts"
import type { LivePanelEvent } from "./livePanel.machine.ts"

/** The real programs behind the live panel. */
export const livePanel = {
  watchScore: ({ input, sendBack }: { input: { eventId: string }; sendBack: (event: LivePanelEvent) => void }) => {
    const push = () => {
      const score = odds.score(input.eventId)
      if (score) sendBack({ type: "score.update", score })
    }
    const stopWatching = odds.watch(input.eventId)
    const stopListening = odds.subscribeScore(input.eventId, push)
    push()
    return () => {
      stopListening()
      stopWatching()
    }
  }
}
