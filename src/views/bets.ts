import { useSelector } from "@xstate/react"
import type { FlowRef } from "../machines/flows.ts"
import { useFlow } from "./flows.ts"
import type { BetChanges } from "./widgets/BetsTable.tsx"
import { useUser } from "./session.ts"

/**
 * The signed-in player's open bets on an event: the flow `bets.<eventId>`,
 * shared by the event page (positions beside the prices) and the right
 * sidebar (My Bets), refreshed after a bet and when money moves. Undefined
 * for a visitor, who has none.
 */
export const useEventBetsFlow = (eventId: string | undefined) => {
  const signedIn = useUser() !== undefined
  return useFlow("myBets", { id: `bets.${eventId}`, input: { eventId }, enabled: signedIn && eventId !== undefined })
}

export const useEventBets = (eventId: string | undefined) => useSelector(useEventBetsFlow(eventId), (s) => s?.context.bets)

/** Cancel and move on a list's unmatched bets: sent to its flow, off while a change is in flight. */
export const useBetChanges = (list: FlowRef<"myBets"> | undefined): BetChanges | undefined => {
  const busy = useSelector(list, (s) => s?.hasTag("busy") ?? false)
  return list
    ? { cancel: (betId) => list.send({ type: "bets.cancel", betId }), move: (betId, odds) => list.send({ type: "bets.move", betId, odds }), busy }
    : undefined
}
