import { Effect } from "effect"
import { UserApi } from "../schema/identity.ts"
import { SettingsApi } from "../schema/settings.ts"
import { SportsApi } from "../schema/sports.ts"
import { Api } from "../services/api.ts"
import { run } from "../services/runtime.ts"

const data = <A>(effect: Effect.Effect<{ readonly data: A }, unknown, Api>) => Effect.map(effect, (envelope) => envelope.data)

/** The startup pipeline's calls; failures are only logged by the machine. */
export const startup = {
  sports: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(SportsApi.endpoints.sportsData, {}, { notify: "none" }))), signal),
  ads: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(SettingsApi.endpoints.advertisement, {}, { notify: "none" }))), signal),
  user: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(UserApi.endpoints.getUserData, {}, { notify: "none" }))), signal),
  appSettings: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(SettingsApi.endpoints.appSettings, {}, { notify: "none" }))), signal),
  allSettings: ({ signal }: { signal: AbortSignal }) =>
    run(data(Api.use((api) => api.call(SettingsApi.endpoints.allAppSettings, {}, { notify: "none" }))), signal)
}
