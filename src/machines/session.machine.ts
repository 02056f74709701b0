import { assign, enqueueActions, fromCallback, fromPromise, sendTo, setup } from "xstate"
import type { User } from "../schema/user.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { walletMachine } from "./wallet.machine.ts"

/**
 * The player's session (SPEC section 4): a token plus the user's data.
 * Restoring waits for the start-up pipeline to load the user of a stored
 * token; signing in (login, OTP) hands over token and user; the user's own
 * socket event reloads the user; any 401 from the API ends the session;
 * logout tells the server, clears the stored session and goes home. While
 * signed in it runs the wallet switch (system id `wallet`), kept in step
 * with the user it loads. News the player did not ask for this moment (a
 * waiting bet matched) is told as a toast, and `betsChanged` counts the
 * socket's bet events so open lists of bets load again (`watchBets`).
 */
export interface SessionContext {
  readonly token: string | undefined
  readonly user: User | undefined
  /** How many of the user's socket events were about their bets (placed, matched, cancelled, settled). */
  readonly betsChanged: number
}

export type SessionEvent =
  | { type: "session.loaded"; user: User }
  | { type: "session.restoreFailed" }
  | { type: "session.signedIn"; token: string; user: User; remember: boolean }
  | { type: "session.tokenChanged"; token: string }
  | { type: "session.logout" }
  | { type: "session.expired" }
  /** The user's socket event: why (`bet.matched`, `bet.settle`, `deposit`…) and what to tell the player, if anything. */
  | { type: "user.changed"; reason?: string | undefined; message?: string | undefined }

/** The logout toast (SPEC section 8). */
export const LOGGED_OUT = { message: "Logged Out", subMessage: "Where Real Life Happens" } as const

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { token: string | undefined },
    children: {} as { wallet: "wallet"; userChannel: "userChannel"; fetchUser: "fetchUser"; logout: "logout" }
  },
  actors: {
    wallet: walletMachine,
    /** The user's socket event and the API's 401 signal, as machine events. */
    userChannel: fromCallback<SessionEvent, { userId: string }>(unprovided("session", "userChannel")),
    fetchUser: fromPromise<User>(unprovided("session", "fetchUser")),
    logout: fromPromise<void, { userId: string | undefined }>(unprovided("session", "logout"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== undefined
  },
  actions: {
    /** Token and user in storage (`remember: false`: the token lasts for this browser session). */
    saveSession: unprovidedAction<{ token: string; user: User; remember: boolean }>("session", "saveSession"),
    saveUser: unprovidedAction<{ user: User }>("session", "saveUser"),
    saveToken: unprovidedAction<{ token: string }>("session", "saveToken"),
    clearSession: unprovidedAction("session", "clearSession"),
    /** The realtime socket presents the new token (or none). */
    authenticateSocket: unprovidedAction<{ token: string | undefined }>("session", "authenticateSocket"),
    goHome: unprovidedAction("session", "goHome"),
    /** 'Logged Out' / 'Where Real Life Happens'. */
    notifyLoggedOut: unprovidedAction("session", "notifyLoggedOut"),
    /** A toast with the server's news ("India: Matched ₹200.00 at 1.78"). */
    tellPlayer: unprovidedAction<{ message: string }>("session", "tellPlayer"),
    /** What the socket said: bet news counted for the lists of bets, a message told. */
    heard: enqueueActions(({ event, enqueue }) => {
      if (event.type !== "user.changed") return
      if (event.reason?.startsWith("bet")) enqueue.assign({ betsChanged: ({ context }) => context.betsChanged + 1 })
      if (event.message) enqueue({ type: "tellPlayer", params: { message: event.message } })
    })
  }
}).createMachine({
  id: "session",
  context: ({ input }) => ({ token: input.token, user: undefined, betsChanged: 0 }),
  initial: "Starting",
  states: {
    Starting: {
      tags: ["restoring"],
      always: [{ guard: "hasToken", target: "Restoring" }, { target: "LoggedOut" }]
    },
    Restoring: {
      tags: ["restoring"],
      on: {
        "session.loaded": { target: "LoggedIn", actions: assign({ user: ({ event }) => event.user }) },
        "session.restoreFailed": { target: "LoggedOut", actions: assign({ token: undefined, user: undefined }) }
      }
    },
    LoggedOut: {
      entry: { type: "authenticateSocket", params: { token: undefined } },
      on: {
        "session.signedIn": {
          target: "LoggedIn",
          actions: [
            assign({ token: ({ event }) => event.token, user: ({ event }) => event.user }),
            { type: "saveSession", params: ({ event }) => ({ token: event.token, user: event.user, remember: event.remember }) }
          ]
        }
      }
    },
    LoggedIn: {
      tags: ["signedIn"],
      entry: { type: "authenticateSocket", params: ({ context }) => ({ token: context.token }) },
      invoke: [
        { id: "userChannel", src: "userChannel", input: ({ context }) => ({ userId: context.user!.id }) },
        { id: "wallet", systemId: "wallet", src: "wallet", input: ({ context }) => ({ wallet: context.user!.wallet }) }
      ],
      on: {
        "session.logout": "LoggingOut",
        "session.expired": { target: "LoggedOut", actions: assign({ token: undefined, user: undefined }) },
        "session.tokenChanged": {
          actions: [
            assign({ token: ({ event }) => event.token }),
            { type: "saveToken", params: ({ event }) => ({ token: event.token }) },
            { type: "authenticateSocket", params: ({ event }) => ({ token: event.token }) }
          ]
        }
      },
      initial: "Idle",
      states: {
        Idle: { on: { "user.changed": { target: "Refreshing", actions: "heard" } } },
        Refreshing: {
          invoke: {
            id: "fetchUser",
            src: "fetchUser",
            onDone: {
              target: "Idle",
              actions: [
                assign({ user: ({ event }) => event.output }),
                { type: "saveUser", params: ({ event }) => ({ user: event.output }) },
                // Another tab, or a claimed bonus, may have moved the player to the other wallet.
                sendTo("wallet", ({ event }) => ({ type: "wallet.sync" as const, wallet: event.output.wallet }))
              ]
            },
            onError: "Idle"
          },
          // Another change while loading: load again once this answer is in.
          on: { "user.changed": { target: "Refreshing", reenter: true, actions: "heard" } }
        }
      }
    },
    LoggingOut: {
      tags: ["busy"],
      invoke: {
        id: "logout",
        src: "logout",
        input: ({ context }) => ({ userId: context.user?.id }),
        // The session ends here whatever the server answered.
        onDone: { target: "LoggedOut", actions: ["clearSession", assign({ token: undefined, user: undefined }), "goHome", "notifyLoggedOut"] },
        onError: { target: "LoggedOut", actions: ["clearSession", assign({ token: undefined, user: undefined }), "goHome", "notifyLoggedOut"] }
      }
    }
  }
})
