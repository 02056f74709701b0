import type { OddsChangeRule } from "../../schema/betting.ts"
import { BettingApi } from "../../schema/betting.ts"
import type { PlaceRequest } from "../../machines/betSlip.machine.ts"
import { Api } from "../../services/api.ts"
import { data, runTask, written } from "../bridge.ts"

export { toastFailure, toastSuccess } from "../bridge.ts"
import { betEndpointOf, marketBetsQuery, oddsRulePayload, oneClickPayload, placeBetPayload } from "../requests.ts"

/**
 * The bet slip's calls, on the Effect runtime: this chunk (and the runtime)
 * loads with the first slip opened, so an event's markets paint without it
 * (src/root/flows/betSlip.ts).
 */

const betting = BettingApi.endpoints

export const loadSetting = (query: { sportsId: string; leagueId: string; eventId: string }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(betting.setting, { query }))), signal)

export const loadOpenBets = (market: { marketId: string }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(betting.betsByMarket, { query: marketBetsQuery(market) }))), signal)

/** The server's confirmation of the new rule shows as a toast. */
export const saveOddsRule = (request: { rule: OddsChangeRule }, signal: AbortSignal) =>
  runTask(written(Api.use((api) => api.call(betting.updateSetting, { payload: oddsRulePayload(request) }))), signal)

/** One-click betting's stake, or off: the server's confirmation shows as a toast. */
export const saveOneClick = (request: { stake: number | null }, signal: AbortSignal) =>
  runTask(written(Api.use((api) => api.call(betting.updateSetting, { payload: oneClickPayload(request) }))), signal)

/** What happened to the bet ("Matched ₹100.00 at 1.82", "Waiting at 1.82"…) or the reason it was refused shows in the slip, where the player acts, and only there (no toast as well). */
export const placeBet = (request: PlaceRequest, signal: AbortSignal) =>
  runTask(
    data(Api.use((api) => api.call(betting[betEndpointOf(request.selection.channel)], { payload: placeBetPayload(request) }, { idempotencyKey: request.key }))),
    signal
  )
