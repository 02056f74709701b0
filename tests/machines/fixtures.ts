import type { User, WalletCode } from "../../src/schema/user.ts"

export const player: User = {
  id: "u1", name: "Ravi", username: "ravi1234", mobileNo: "+919876543210", role: 4, wallet: 1,
  balance: 100, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "ABCDEFGH", bets: []
}

import { fromCallback, fromPromise } from "xstate"
import { connectivityMachine } from "../../src/machines/connectivity.machine.ts"
import { LOGGED_OUT, sessionMachine } from "../../src/machines/session.machine.ts"
import { walletMachine } from "../../src/machines/wallet.machine.ts"
import { logoutPayload, switchWalletPayload } from "../../src/root/requests.ts"
import { WALLET_CHANGED } from "../../src/schema/wallet.ts"
import type { Effect, Recorder } from "./walk.ts"

const nothing = () => {}

/** The session with its world switched off, for tests of the app around it. */
export const quietSession = sessionMachine.provide({
  actors: {
    userChannel: fromCallback(() => nothing),
    fetchUser: fromPromise(async () => player),
    logout: fromPromise(async () => {})
  },
  actions: {
    saveSession: nothing,
    saveUser: nothing,
    saveToken: nothing,
    clearSession: nothing,
    authenticateSocket: nothing,
    goHome: nothing,
    notifyLoggedOut: nothing,
    tellPlayer: nothing
  }
})

/** The network's state with its world switched off: always online, for tests of the app around it. */
export const quietConnectivity = connectivityMachine.provide({
  actors: { network: fromCallback(() => nothing) },
  actions: { reconnect: nothing }
})

/** The session's world as the walks record it (tests/machines/walk.ts): its calls, storage, socket, the user's channel, the wallet switch. */
export const sessionWorld = (world: Recorder) => ({
  actors: {
    wallet: walletMachine.provide({
      actors: { switchWallet: world.call<{ wallet: WalletCode }, User>("PUT /api/v1/wallet", switchWalletPayload) },
      actions: { notifyChanged: world.toast("success", WALLET_CHANGED), toastFailure: world.toastFailure }
    }),
    userChannel: world.watch("user channel"),
    fetchUser: world.call("GET /api/v1/getUserData"),
    logout: world.call("POST /identity/user/logout", logoutPayload)
  },
  actions: {
    saveSession: world.store("session"),
    saveUser: world.store("user"),
    saveToken: world.store("token"),
    clearSession: world.store("session cleared"),
    authenticateSocket: world.act("socket token"),
    goHome: world.act("go home"),
    notifyLoggedOut: world.toast("success", LOGGED_OUT),
    tellPlayer: (_: unknown, { message }: { message: string }) => world.record({ kind: "toast", level: "success", message })
  }
})

/** A session in a walk's system, recording into `world`. */
export const recordingSession = (world: Recorder) => sessionMachine.provide(sessionWorld(world))

/** What signing in does to the session's world (SPEC section 4): token and user stored, the socket and the user's channel on. */
export const signInEffects = (token: string, user: User, remember: boolean): Array<Effect> => [
  { kind: "store", what: "session", value: { token, user, remember } },
  { kind: "do", name: "socket token", params: { token } },
  { kind: "watch", name: "user channel", input: { userId: user.id } }
]
