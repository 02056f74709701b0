import { Effect } from "effect"
import { BettingApi } from "../schema/betting.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"
import type { PlaceOutcome, SlipSelection } from "./betSlip.machine.ts"

const betting = BettingApi

const data = <A, E, R>(effect: Effect.Effect<{ readonly data: A }, E, R>) => Effect.map(effect, (envelope) => envelope.data)

const endpointOf = (channel: SlipSelection["channel"]) =>
  channel === "fancy" ? betting.endpoints.fancyBetSport : channel === "racing" ? betting.endpoints.betRacing : betting.endpoints.betSport

/** The real programs behind the bet slip. */
export const betSlip = {
  loadSetting: ({ input, signal }: { input: { sportsId: string; leagueId: string; eventId: string }; signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(betting.endpoints.setting, { query: input }, { notify: "none" }))), signal),
  loadOpenBets: ({ input, signal }: { input: { marketId: string }; signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(betting.endpoints.betsByMarket, { query: { marketId: input.marketId } }, { notify: "none" }))), signal),
  /** Shows the server's confirmation of the new rule as a toast. */
  saveOddsRule: ({ input, signal }: { input: { rule: "better" | "any" }; signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(betting.endpoints.updateSetting, { payload: { oddsChange: input.rule } }))), signal),
  /** Shows "Bet placed" or the server's reason as a toast (SPEC section 7: writes). */
  placeBet: ({ input, signal }: { input: { selection: SlipSelection; odds: number; size: number | null; stake: number; key: string }; signal: AbortSignal }) =>
    run(
      data(Api.use((api) =>
        api.call(endpointOf(input.selection.channel), {
          payload: {
            marketId: input.selection.marketId,
            selectionId: input.selection.selectionId,
            selectionType: input.selection.side,
            odds: input.odds,
            stake: input.stake,
            ...(input.size === null ? {} : { size: input.size })
          }
        }, { idempotencyKey: input.key })
      )).pipe(
        Effect.map((placed): PlaceOutcome => ({ ok: true, placed })),
        // A refusal is an answer, not a failure: the machine shows its message.
        Effect.catchTag("ApiFailure", (failure) => Effect.succeed<PlaceOutcome>({ ok: false, reason: failure.reason, message: failure.message }))
      ),
      signal
    )
}
