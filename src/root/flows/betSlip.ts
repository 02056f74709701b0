import { Schema } from "effect"
import { assign, type EventObject, fromCallback } from "xstate"
import { DEFAULT_CHIPS } from "../../domain/money.ts"
import { betSlipMachine, type PriceWatch } from "../../machines/betSlip.machine.ts"
import { BettingApi } from "../../schema/betting.ts"
import { Api } from "../../services/api.ts"
import { odds } from "../../services/odds.ts"
import { data, task } from "../bridge.ts"
import { betEndpointOf, marketBetsQuery, oddsRulePayload, placeBetPayload } from "../requests.ts"

const betting = BettingApi.endpoints


/** The player's chips, kept in local storage; a damaged list is ignored. */
const CHIPS_KEY = "betChips"
const Chips = Schema.fromJsonString(Schema.Array(Schema.Int.check(Schema.isGreaterThan(0))))
const decodeChips = Schema.decodeUnknownOption(Chips)

const storedChips = (): ReadonlyArray<number> | undefined => {
  try {
    const raw = localStorage.getItem(CHIPS_KEY)
    const chips = raw === null ? undefined : decodeChips(raw)
    return chips?._tag === "Some" && chips.value.length > 0 ? chips.value : undefined
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
    loadSetting: task((query) => data(Api.use((api) => api.call(betting.setting, { query }, { notify: "none" })))),
    loadOpenBets: task((market) => data(Api.use((api) => api.call(betting.betsByMarket, { query: marketBetsQuery(market) }, { notify: "none" })))),
    // The server's confirmation of the new rule shows as a toast.
    saveOddsRule: task((request) => data(Api.use((api) => api.call(betting.updateSetting, { payload: oddsRulePayload(request) })))),
    // "Bet placed" or the server's reason as a toast (SPEC section 7: writes).
    placeBet: task((request) =>
      data(Api.use((api) => api.call(betting[betEndpointOf(request.selection.channel)], { payload: placeBetPayload(request) }, { idempotencyKey: request.key })))
    ),
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
