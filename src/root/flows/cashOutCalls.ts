import type { CashOutRequest } from "../../machines/cashOut.machine.ts"
import { BettingApi } from "../../schema/betting.ts"
import { CashOutApi } from "../../schema/cashOut.ts"
import { Api } from "../../services/api.ts"
import { data, runTask, written } from "../bridge.ts"

export { toastFailure, toastSuccess } from "../bridge.ts"
import { autoCashOutPayload, cashOutPayload, cashOutQuoteQuery } from "../requests.ts"

/**
 * Cash out's calls, on the Effect runtime: this chunk (and the runtime) loads with the first Cash Out clicked
 * (src/root/flows/cashOut.ts). The dialog shows every answer and refusal itself: no toasts.
 */

// The group's endpoints carry its /api/v1 prefix (the bare definitions do not).
const cashOutApi = CashOutApi.endpoints

export const loadSetting = (query: { eventId: string }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(BettingApi.endpoints.setting, { query }))), signal)

export const quote = (request: { marketId: string; fraction: number }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(cashOutApi.cashOutQuote, { query: cashOutQuoteQuery(request) }))), signal)

export const cashOut = (request: CashOutRequest, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(cashOutApi.cashOut, { payload: cashOutPayload(request) }, { idempotencyKey: request.key }))), signal)

/** The player's rules, the market's picked out (none: null). */
export const loadAutoRule = ({ marketId }: { marketId: string }, signal: AbortSignal) =>
  runTask(data(Api.use((api) => api.call(cashOutApi.autoCashOutRules, {}))), signal).then((rules) => rules.find((rule) => rule.marketId === marketId) ?? null)

/** "Auto cash out set" / "removed", or why not, as a toast. */
export const saveAutoRule = (rule: { marketId: string; target: number | null; floor: number | null }, signal: AbortSignal) =>
  runTask(written(Api.use((api) => api.call(cashOutApi.setAutoCashOut, { payload: autoCashOutPayload(rule) }))), signal)
