import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import { createActor } from "xstate"
import { betSlipMachine } from "../machines/betSlip.machine.ts"
import { myBetsMachine } from "../machines/myBets.machine.ts"
import { useUser } from "./session.ts"

/**
 * What the event page and the right sidebar share: the open bets of the
 * event on screen (one actor, so placing a bet refreshes both), and the bet
 * slip with its side effects.
 */
export const eventBets = createActor(myBetsMachine).start()

const CHIPS_KEY = "betChips"

export const storedChips = (): ReadonlyArray<number> | undefined => {
  try {
    const raw = localStorage.getItem(CHIPS_KEY)
    const list = raw ? (JSON.parse(raw) as unknown) : undefined
    return Array.isArray(list) && list.every((n) => typeof n === "number" && Number.isInteger(n) && n > 0) ? list : undefined
  } catch {
    return undefined
  }
}

/** The bet slip with the browser's side effects: chips kept in local storage, My Bets refreshed after a bet. */
export const browserBetSlip = betSlipMachine.provide({
  actions: {
    storeChips: (_, { chips }) => {
      try {
        localStorage.setItem(CHIPS_KEY, JSON.stringify(chips))
      } catch {
        // Storage full or off: the chips last for this page only.
      }
    },
    betPlaced: () => {
      eventBets.send({ type: "bets.refresh" })
    }
  }
})

/** "1.2k" for sizes on the price ladder. */
export const sizeLabel = (size: number) => (size >= 1000 ? `${(size / 1000).toFixed(size >= 10_000 ? 0 : 1)}k` : String(Math.round(size)))

/** Prices as shown: decimal odds with two decimals, rates and lines as they are. */
export const priceLabel = (price: number, type: "EXCHANGE" | "BOOKMAKER" | "FANCY") => (type === "EXCHANGE" ? price.toFixed(2) : String(price))

/** The signed-in player's open bets on an event, reloaded whenever their account changes (a bet, a settlement). */
export const useEventBets = (eventId: string | undefined) => {
  const user = useUser()
  useEffect(() => {
    if (user && eventId) eventBets.send({ type: "bets.load", query: { eventId } })
  }, [user, eventId])
  return useSelector(eventBets, (s) => (user && s.context.query.eventId === eventId ? s.context.bets : undefined))
}
