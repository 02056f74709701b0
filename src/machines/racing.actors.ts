import { Effect } from "effect"
import { OddsApi } from "../schema/betting.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"

const odds = OddsApi

/** The real programs behind /racing. */
export const racing = {
  loadRacing: ({ signal }: { signal: AbortSignal }) =>
    run(Effect.map(Api.use((api) => api.call(odds.endpoints.racing, {}, { notify: "none" })), (envelope) => envelope.data), signal)
}
