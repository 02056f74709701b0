import { Effect } from "effect"
import { SessionApi, UserApi } from "../schema/identity.ts"
import { Api, onSessionEnded } from "../services/api.ts"
import { Realtime } from "../services/realtime.ts"
import { run, runtime } from "../services/runtime.ts"
import type { SessionEvent } from "./session.machine.ts"

const user = UserApi
const sessionApi = SessionApi

/** The real programs behind the session machine. */
export const session = {
  fetchUser: ({ signal }: { signal: AbortSignal }) =>
    run(Effect.map(Api.use((api) => api.call(user.endpoints.getUserData, {}, { notify: "none" })), (envelope) => envelope.data), signal),
  logout: ({ input, signal }: { input: { userId: string | undefined }; signal: AbortSignal }) =>
    run(
      Api.use((api) => api.call(sessionApi.endpoints.logout, { payload: input.userId ? { user_id: input.userId } : {} }, { notify: "none" })).pipe(
        Effect.asVoid,
        // A session the server already ended is still logged out here.
        Effect.catch(() => Effect.void)
      ),
      signal
    ),
  userChannel: ({ input, sendBack }: { input: { userId: string }; sendBack: (event: SessionEvent) => void }) => {
    const stopSocket = runtime.runSync(Realtime.use((realtime) => realtime.on(input.userId, () => sendBack({ type: "user.changed" }))))
    const stopExpiry = onSessionEnded(() => sendBack({ type: "session.expired" }))
    return () => {
      stopSocket()
      stopExpiry()
    }
  }
}
