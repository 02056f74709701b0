import { Effect } from "effect"
import { Api as Contract } from "../schema/api.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"

const endpoints = Contract.groups

const data = <A>(effect: Effect.Effect<{ readonly data: A }, unknown, Api>) => Effect.map(effect, (envelope) => envelope.data)

/** The startup pipeline's calls; failures are only logged by the machine. */
export const startup = {
  sports: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(endpoints.sports.endpoints.sportsData, {}, { notify: "none" }))), signal),
  ads: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(endpoints.settings.endpoints.advertisement, {}, { notify: "none" }))), signal),
  user: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(endpoints.user.endpoints.getUserData, {}, { notify: "none" }))), signal),
  appSettings: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(endpoints.settings.endpoints.appSettings, {}, { notify: "none" }))), signal),
  allSettings: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(endpoints.settings.endpoints.allAppSettings, {}, { notify: "none" }))), signal)
}
