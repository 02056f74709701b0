import { assign, type EventObject, fromCallback, fromPromise } from "xstate"
import { DEFAULT_CHIPS } from "../../domain/money.ts"
import { betSlipMachine, type PlaceRequest, type PriceWatch } from "../../machines/betSlip.machine.ts"
import type { Bet } from "../../schema/bets.ts"
import type { BetSetting, OddsChangeRule, PlacedBet } from "../../schema/betting.ts"
import { odds } from "../../services/odds.ts"

type SettingQuery = { sportsId: string; leagueId: string; eventId: string }

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
    loadSetting: fromPromise<BetSetting, SettingQuery>(({ input, signal }) => calls().then((c) => c.loadSetting(input, signal))),
    loadOpenBets: fromPromise<ReadonlyArray<Bet>, { marketId: string }>(({ input, signal }) => calls().then((c) => c.loadOpenBets(input, signal))),
    saveOddsRule: fromPromise<BetSetting, { rule: OddsChangeRule }>(({ input, signal }) => calls().then((c) => c.saveOddsRule(input, signal))),
    placeBet: fromPromise<PlacedBet, PlaceRequest>(({ input, signal }) => calls().then((c) => c.placeBet(input, signal))),
    livePrice
  },
  actions: {
    restoreChips: assign({ chips: () => storedChips() ?? DEFAULT_CHIPS }),
    storeChips: (_, { chips }: { chips: ReadonlyArray<number> }) => {
      try {
        localStorage.setItem(CHIPS_KEY, JSON.stringify(chips))
      } catch {
        // Storage full or off: the chips last for this page only.
      }
    }
  }
})
