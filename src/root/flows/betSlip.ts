import { assign, type EventObject, fromCallback } from "xstate"
import { DEFAULT_CHIPS } from "../../domain/money.ts"
import { betSlipMachine, type PriceWatch } from "../../machines/betSlip.machine.ts"
import { betOutcome } from "../../domain/matching.ts"
import type { PlacedBet } from "../../schema/betting.ts"
import type { Failure } from "../../schema/errors.ts"
import { noticeStore } from "../../services/noticeStore.ts"
import { odds } from "../../services/odds.ts"
import { lazyTask } from "../lazyTask.ts"

/** The slip's calls load with their chunk (and the Effect runtime) when the first slip opens: the markets paint without them. */
const calls = () => import("./betSlipCalls.ts")

/** The player's chips, kept in local storage: whole rupees above zero; a damaged list is ignored. */
const CHIPS_KEY = "betChips"
const isChips = (value: unknown): value is ReadonlyArray<number> =>
  Array.isArray(value) && value.length > 0 && value.every((chip) => Number.isSafeInteger(chip) && chip > 0)

const storedChips = (): ReadonlyArray<number> | undefined => {
  try {
    const raw = localStorage.getItem(CHIPS_KEY)
    const chips: unknown = raw === null ? undefined : JSON.parse(raw)
    return isChips(chips) ? chips : undefined
  } catch {
    return undefined
  }
}

/** The live price of the slip's selection from the odds books, as `slip.price`. */
const livePrice = fromCallback<EventObject, PriceWatch>(({ input, sendBack }) => {
  const push = () => {
    const level = odds.level(input.marketId, input.selectionId, input.side)
    if (level) sendBack({ type: "slip.price", odds: level.price, size: input.withSize ? level.size : null })
  }
  push()
  return odds.subscribeMarket(input.marketId, push)
})

/** The bet slip with its calls, the live price and the chips in local storage. */
export default betSlipMachine.provide({
  actors: {
    loadSetting: lazyTask(calls, (c) => c.loadSetting),
    loadOpenBets: lazyTask(calls, (c) => c.loadOpenBets),
    saveOddsRule: lazyTask(calls, (c) => c.saveOddsRule),
    saveOneClick: lazyTask(calls, (c) => c.saveOneClick),
    placeBet: lazyTask(calls, (c) => c.placeBet),
    livePrice
  },
  actions: {
    // Only a save's answer toasts, and its chunk is loaded by then.
    toastSuccess: (_, params: { message: string }) => void calls().then((c) => c.toastSuccess(_, params)),
    toastFailure: (_, params: { error: Failure }) => void calls().then((c) => c.toastFailure(_, params)),
    restoreChips: assign({ chips: () => storedChips() ?? DEFAULT_CHIPS }),
    tellOutcome: (_, { placed }: { placed: PlacedBet }) => noticeStore.show("success", `${placed.bet.selection}: ${betOutcome(placed.bet)}`),
    storeChips: (_, { chips }: { chips: ReadonlyArray<number> }) => {
      try {
        localStorage.setItem(CHIPS_KEY, JSON.stringify(chips))
      } catch {
        // Storage full or off: the chips last for this page only.
      }
    }
  }
})
