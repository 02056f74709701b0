import { useSelector } from "@xstate/react"
import { useFlow } from "./flows.ts"
import { useUser } from "./session.ts"

/**
 * The signed-in player's open bets on an event: the flow `bets.<eventId>`,
 * shared by the event page (positions beside the prices) and the right
 * sidebar (My Bets), refreshed after a bet and when money moves. Undefined
 * for a visitor, who has none.
 */
export const useEventBets = (eventId: string | undefined) => {
  const signedIn = useUser() !== undefined
  const bets = useFlow("myBets", { id: `bets.${eventId}`, input: { eventId }, enabled: signedIn && eventId !== undefined })
  return useSelector(bets, (s) => s?.context.bets)
}
