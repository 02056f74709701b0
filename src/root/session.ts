import { fromCallback } from "xstate"
import { LOGGED_OUT, type SessionEvent, sessionMachine } from "../machines/session.machine.ts"
import { walletMachine } from "../machines/wallet.machine.ts"
import type { Failure } from "../schema/errors.ts"
import { isUserChanged } from "../schema/guards.ts"
import type { User } from "../schema/user.ts"
import * as storage from "../services/browserStorage.ts"
import { navigator } from "../services/navigator.ts"
import { noticeStore } from "../services/noticeStore.ts"
import { onSessionEnded } from "../services/sessionEnd.ts"
import * as socket from "../services/socket.ts"
import { lazyTask } from "./lazyTask.ts"
import { startupTask } from "./startup.ts"

/**
 * The session with its world, on the first page: none of it waits for the
 * Effect runtime. Reading the user is the startup pipeline's call
 * (src/root/startup.ts); the writing calls (logout, the wallet switch) load
 * with their chunk when first made (./sessionCalls.ts).
 */
const calls = () => import("./sessionCalls.ts")

/** The wallet switch with its call and 'Wallet Changed'. */
const wallet = walletMachine.provide({
  actors: {
    switchWallet: lazyTask(calls, (c) => c.switchWallet)
  },
  // The switch's call has loaded the chunk by now.
  actions: {
    notifyChanged: () => void calls().then((c) => c.notifyWalletChanged()),
    toastFailure: (_, params: { error: Failure }) => void calls().then((c) => c.toastFailure(_, params))
  }
})

/** The session with its world: the user's realtime channel, storage, the calls, navigation and the 'Logged Out' toast. */
export const session = sessionMachine.provide({
  actors: {
    wallet,
    // A reload after a change: never the answer asked for at startup.
    fetchUser: startupTask("getUserData", { fresh: true }),
    logout: lazyTask(calls, (c) => c.logout),
    /** The user's socket event (SPEC section 7: reload the user) and the API's 401 signal, as machine events. */
    userChannel: fromCallback<SessionEvent, { userId: string }>(({ input, sendBack }) => {
      const stopSocket = socket.on(input.userId, (message) => {
        if (isUserChanged(message)) sendBack({ type: "user.changed", reason: message.reason, message: message.message })
      })
      const stopExpiry = onSessionEnded(() => sendBack({ type: "session.expired" }))
      return () => {
        stopSocket()
        stopExpiry()
      }
    })
  },
  actions: {
    saveSession: (_, p: { token: string; user: User; remember: boolean }) => storage.saveSession(p.token, p.user, p.remember),
    saveUser: (_, p: { user: User }) => storage.saveUser(p.user),
    saveToken: (_, p: { token: string }) => storage.saveToken(p.token),
    clearSession: () => storage.clearSession(),
    authenticateSocket: (_, p: { token: string | undefined }) => socket.authenticate(p.token),
    goHome: () => navigator.go("/"),
    notifyLoggedOut: () => noticeStore.show("success", LOGGED_OUT.message, LOGGED_OUT.subMessage),
    tellPlayer: (_, { message }: { message: string }) => noticeStore.show("success", message)
  }
})
