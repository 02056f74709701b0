import { Effect, Schema } from "effect"
import { fromCallback } from "xstate"
import { LOGGED_OUT, type SessionEvent, sessionMachine } from "../machines/session.machine.ts"
import { walletMachine } from "../machines/wallet.machine.ts"
import { SessionApi, UserApi } from "../schema/identity.ts"
import { UserChanged } from "../schema/realtime.ts"
import { WALLET_CHANGED, WalletApi } from "../schema/wallet.ts"
import type { User } from "../schema/user.ts"
import { Api, onSessionEnded } from "../services/api.ts"
import { Notices } from "../services/notices.ts"
import { Realtime } from "../services/realtime.ts"
import { navigator, runtime } from "../services/runtime.ts"
import { Storage } from "../services/storage.ts"
import { data, effect, task } from "./bridge.ts"
import { logoutPayload, switchWalletPayload } from "./requests.ts"

const isUserChanged = Schema.is(UserChanged)

/** The wallet switch with its call and 'Wallet Changed'. */
const wallet = walletMachine.provide({
  actors: {
    switchWallet: task((request) =>
      data(Api.use((api) => api.call(WalletApi.endpoints.switchWallet, { payload: switchWalletPayload(request) }, { notify: "failure" })))
    )
  },
  actions: { notifyChanged: () => effect(Notices.use((n) => n.success(WALLET_CHANGED.message, WALLET_CHANGED.subMessage))) }
})

/** The session with its world: the user's realtime channel, storage, the calls, navigation and the 'Logged Out' toast. */
export const session = sessionMachine.provide({
  actors: {
    wallet,
    fetchUser: task(() => data(Api.use((api) => api.call(UserApi.endpoints.getUserData, {}, { notify: "none" })))),
    logout: task((request: { userId: string | undefined }) =>
      Api.use((api) => api.call(SessionApi.endpoints.logout, { payload: logoutPayload(request) }, { notify: "none" })).pipe(
        Effect.asVoid,
        // A session the server already ended is still logged out here.
        Effect.catch(() => Effect.void)
      )
    ),
    /** The user's socket event (SPEC section 7: reload the user) and the API's 401 signal, as machine events. */
    userChannel: fromCallback<SessionEvent, { userId: string }>(({ input, sendBack }) => {
      const stopSocket = runtime.runSync(Realtime.use((realtime) =>
        realtime.on(input.userId, (message) => {
          if (isUserChanged(message)) sendBack({ type: "user.changed" })
        })
      ))
      const stopExpiry = onSessionEnded(() => sendBack({ type: "session.expired" }))
      return () => {
        stopSocket()
        stopExpiry()
      }
    })
  },
  actions: {
    saveSession: (_, p: { token: string; user: User; remember: boolean }) => effect(Storage.use((s) => s.saveSession(p.token, p.user, p.remember))),
    saveUser: (_, p: { user: User }) => effect(Storage.use((s) => s.saveUser(p.user))),
    saveToken: (_, p: { token: string }) => effect(Storage.use((s) => s.saveToken(p.token))),
    clearSession: () => effect(Storage.use((s) => s.clearSession)),
    authenticateSocket: (_, p: { token: string | undefined }) => effect(Realtime.use((r) => r.authenticate(p.token))),
    goHome: () => navigator.go("/"),
    notifyLoggedOut: () => effect(Notices.use((n) => n.success(LOGGED_OUT.message, LOGGED_OUT.subMessage)))
  }
})
