import { type ActorRefFrom, type EventObject, fromCallback } from "xstate"
import type { sessionMachine } from "./session.machine.ts"

export interface BalancesChanged {
  readonly type: "balances.changed"
}

/**
 * Tells a money page that the player's money may have moved. The session
 * reloads the user on the user's socket event (a deposit approved, a bet
 * settled, a withdrawal paid or rejected); this follows the session through
 * the actor system and sends `balances.changed` each time the user is read
 * again, so a page's list is fresh without a reload. Every read counts, not
 * only one that changed a balance shown: a held withdrawal paid moves money
 * from the hold to the operator, no figure of the header changes, yet the
 * withdrawal list must show it paid. Pure: it touches only the actor system
 * (without a session there, it stays silent).
 */
export const watchBalances = fromCallback<EventObject, void>(({ system, sendBack }) => {
  const session: ActorRefFrom<typeof sessionMachine> | undefined = system.get("session")
  if (!session) return
  let user = session.getSnapshot().context.user
  const subscription = session.subscribe((snapshot) => {
    if (snapshot.context.user === user) return
    user = snapshot.context.user
    sendBack({ type: "balances.changed" } satisfies BalancesChanged)
  })
  return () => subscription.unsubscribe()
})

export interface BetsChanged {
  readonly type: "bets.refresh"
}

/**
 * Tells a list of bets that the player's bets changed (a waiting bet matched or cancelled, a bet settled), from the
 * session's count of the user's bet events: sends `bets.refresh`. Pure, like `watchBalances`.
 */
export const watchBets = fromCallback<EventObject, void>(({ system, sendBack }) => {
  const session: ActorRefFrom<typeof sessionMachine> | undefined = system.get("session")
  if (!session) return
  let seen = session.getSnapshot().context.betsChanged
  const subscription = session.subscribe((snapshot) => {
    if (snapshot.context.betsChanged === seen) return
    seen = snapshot.context.betsChanged
    sendBack({ type: "bets.refresh" } satisfies BetsChanged)
  })
  return () => subscription.unsubscribe()
})
