import type { User } from "../../src/schema/user.ts"

export const player: User = {
  id: "u1", name: "Ravi", username: "ravi1234", mobileNo: "+919876543210", role: 4, wallet: 1,
  balance: 100, exposure: 0, bonus: 0, refBonus: 0, creditReference: 0, referralCode: "ABCDEFGH", bets: []
}

import { fromCallback, fromPromise } from "xstate"
import { sessionMachine } from "../../src/machines/session.machine.ts"

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
    notifyLoggedOut: nothing
  }
})
