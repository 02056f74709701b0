import { assign, fromPromise, not, sendTo, setup, type SnapshotFrom, stopChild } from "xstate"
import { referralCodeOf } from "../domain/referral.ts"
import type { Failure } from "../schema/errors.ts"
import type { AllAppSettings, Banner, SiteSettings, Theme } from "../schema/settings.ts"
import type { SportsData } from "../schema/sports.ts"
import type { User } from "../schema/user.ts"
import type { AuthStep } from "./authModal.machine.ts"
import { type CallFailed, failedWith } from "./calls.ts"
import { connectivityMachine } from "./connectivity.machine.ts"
import type { FlowClose, FlowName, FlowOpen } from "./flows.ts"
import { sessionMachine } from "./session.machine.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * The root machine: the startup pipeline behind the preloader (SPEC sections 4
 * and 9) and the theme. Startup order: sports, ads, user (only with a stored
 * token), app settings, all settings; each step moves the bar to its mark,
 * while a simulated tick adds 2 % every 50 ms up to 95 %. A failed step is
 * logged and loading goes on. The loader closes 1 s after completion, or at
 * once when the sports load failed.
 *
 * The app actor is the root of the one actor system: the session and the
 * network's state (`connectivity`) live as long as it does; the sign-in
 * modals a view asks for (`auth.open`), and page and modal flows are opened
 * and closed by views (`flow.open` / `flow.close`, counted per id, so two
 * views may share one flow) and spawned as its children with their id as
 * system id. When the network comes back (`network.restored`) it loads again
 * what the page shows.
 *
 * It hears the router (`route.changed`) and the session, so the URL's own
 * requests are decided here, once the stored session is restored: a referral
 * link opens Register with its code for a visitor (before /login); /login
 * opens Sign in, or leaves for home when signed in; closing a modal at /login
 * leaves it too, so a reload does not open it again.
 */

export interface AppInput {
  readonly token: string | undefined
  readonly theme: Theme
}

/** The page the router shows, as far as the app's routing cares. */
export interface Route {
  readonly pathname: string
  readonly referralCode: string | undefined
}

/** What the app's routing needs of the session (its tags). */
export interface SessionStatus {
  readonly restoring: boolean
  readonly signedIn: boolean
}

/** Where a 401 sends the player (services/sessionEnd.ts); a visit opens Sign in. */
export const LOGIN_PATH = "/login"

const statusOf = (snapshot: SnapshotFrom<typeof sessionMachine>): SessionStatus => ({
  restoring: snapshot.hasTag("restoring"),
  signedIn: snapshot.hasTag("signedIn")
})

export interface AppContext {
  readonly token: string | undefined
  readonly progress: number
  readonly message: string
  readonly sports: SportsData
  readonly sportsLoaded: boolean
  readonly banners: ReadonlyArray<Banner>
  readonly settings: SiteSettings | undefined
  readonly allSettings: AllAppSettings | undefined
  readonly theme: Theme
  /** The open flows: how many views use each, by id. */
  readonly flows: Readonly<Record<string, number>>
  /** The sign-in modal a view asked for, until the chain closes (the `authModal` flow shows it). */
  readonly auth: { readonly step: AuthStep; readonly referralCode?: string | undefined } | undefined
  /** The router's page, once a view has said (`route.changed`). */
  readonly route: Route | undefined
  /** The session as last seen; restoring until it has said otherwise. */
  readonly session: SessionStatus
}

export type AppEvent =
  | { type: "theme.toggle" }
  /** Events started, finished or were added (the odds channel): reload, spread over a few seconds. */
  | { type: "catalogue.changed" }
  /** A view asks for a sign-in modal: Login, Register (with a referral code from a link) or Change password. */
  | { type: "auth.open"; step: AuthStep; referralCode?: string | undefined }
  /** The modal chain closed. */
  | { type: "auth.closed" }
  /** The router's location changed (sent by the one view that reads it). */
  | { type: "route.changed"; pathname: string; search: string }
  /** The network came back (from `connectivity`): what the page shows is loaded again. */
  | { type: "network.restored" }
  | FlowOpen
  | FlowClose

/** Progress marks of SPEC section 4. */
export const MARKS = { sports: 20, ads: 40, user: 60, appSettings: 80, allSettings: 90, done: 100 } as const
export const TICK_MS = 50
export const TICK_STEP = 2
export const TICK_CAP = 95
export const CLOSE_DELAY_MS = 1000
/** Every client hears a catalogue change at once: each waits up to this long before it reloads. */
export const REFRESH_SPREAD_MS = 3000

export const MESSAGES = {
  sports: "Loading sports and live events…",
  ads: "Loading offers…",
  user: "Loading your account…",
  appSettings: "Loading site settings…",
  allSettings: "Almost there…",
  done: "Ready"
} as const

const sessionEnded = failedWith("SessionEnded")

const reach = (mark: number) => ({ context }: { context: AppContext }) => Math.max(context.progress, mark)

const appSetup = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent | CallFailed<"loadAds" | "loadAllSettings" | "loadAppSettings" | "loadSports" | "loadUser">,
    input: {} as AppInput
  },
  actors: {
    session: sessionMachine,
    connectivity: connectivityMachine,
    /** The sports list: the authenticated variant while a token is stored (SPEC sections 6 and 7). */
    loadSports: fromPromise<SportsData>(unprovided("app", "loadSports")),
    loadAds: fromPromise<ReadonlyArray<Banner>>(unprovided("app", "loadAds")),
    loadUser: fromPromise<User>(unprovided("app", "loadUser")),
    loadAppSettings: fromPromise<SiteSettings>(unprovided("app", "loadAppSettings")),
    loadAllSettings: fromPromise<AllAppSettings>(unprovided("app", "loadAllSettings"))
  },
  actions: {
    /** Startup failures are only logged (SPEC section 8). */
    logFailure: (_, params: { step: string; error: Failure }) => {
      console.warn(`[startup] ${params.step} failed`, params.error)
    },
    /** Shows the theme and stores it. */
    applyTheme: unprovidedAction<{ theme: Theme }>("app", "applyTheme"),
    /** Title, favicon and brand colour. */
    applySiteSettings: unprovidedAction<{ settings: SiteSettings }>("app", "applySiteSettings"),
    /** Loads the page again: the site started without a network, so it has nothing of its own to show yet. */
    reloadPage: unprovidedAction("app", "reloadPage"),
    /** Spawns the flow's logic as a child with `id` as its id and system id (the root knows the logic of each flow). */
    spawnFlow: unprovidedAction<{ id: string; flow: FlowName; input: unknown }>("app", "spawnFlow"),
    /** Goes to `to` in the router; `replace` takes the current page's place in history. */
    navigate: unprovidedAction<{ to: string; replace: boolean }>("app", "navigate")
  },
  guards: {
    hasToken: ({ context }) => context.token !== undefined,
    noModal: ({ context }) => context.auth === undefined,
    /** The preloader's bar has room for another step before its cap. */
    tickBelowCap: ({ context }) => context.progress + TICK_STEP < TICK_CAP,
    sportsLoaded: ({ context }) => context.sportsLoaded,
    /** The stored token was refused while loading the sports: it is gone, load them as a visitor. */
    staleToken: ({ context, event }) => context.token !== undefined && sessionEnded({ event }),
    flowOpen: ({ context, event }) => "id" in event && context.flows[event.id] !== undefined,
    /** Another page, or another referral code, than the one the routing last followed. */
    routeMoved: ({ context, event }) =>
      event.type === "route.changed" && (context.route?.pathname !== event.pathname || context.route.referralCode !== referralCodeOf(event.search)),
    sessionMoved: ({ context }, status: SessionStatus) => status.restoring !== context.session.restoring || status.signedIn !== context.session.signedIn,
    restoring: ({ context }) => context.session.restoring,
    signedIn: ({ context }) => context.session.signedIn,
    referralForVisitor: ({ context }) => context.route?.referralCode !== undefined && !context.session.signedIn,
    atLogin: ({ context }) => context.route?.pathname === LOGIN_PATH,
    lastUserOfFlow: ({ context, event }) => "id" in event && context.flows[event.id] === 1
  },
  delays: {
    tick: TICK_MS,
    closeLoader: CLOSE_DELAY_MS,
    // Whole milliseconds, as the browser's timers count them (a fake clock would fire at a fraction, where `Date.now()` is an integer).
    refreshSpread: () => Math.floor(Math.random() * REFRESH_SPREAD_MS)
  }
})

// `followRoute` checks the guards above by name: an action is typed by a setup only once that setup exists.
export const appMachine = appSetup.extend({
  actions: {
    /**
     * What the URL asks of a known session; run when the page or the session
     * changes, never again for the same pair (a closed modal stays closed).
     */
    followRoute: appSetup.enqueueActions(({ context, enqueue, check }) => {
      if (check("restoring")) return
      // A referral link wins over /login: the visitor came to register.
      if (check("referralForVisitor")) enqueue.raise({ type: "auth.open", step: "register", referralCode: context.route!.referralCode })
      else if (check("atLogin")) {
        if (check("signedIn")) enqueue({ type: "navigate", params: { to: "/", replace: true } })
        else enqueue.raise({ type: "auth.open", step: "login" })
      }
    })
  }
}).createMachine({
  id: "app",
  context: ({ input }) => ({
    token: input.token,
    progress: 0,
    message: MESSAGES.sports,
    sports: [],
    sportsLoaded: false,
    banners: [],
    settings: undefined,
    allSettings: undefined,
    theme: input.theme,
    flows: {},
    auth: undefined,
    route: undefined,
    session: { restoring: true, signedIn: false }
  }),
  entry: { type: "applyTheme", params: ({ context }) => ({ theme: context.theme }) },
  // The session and the network's state live as long as the app; other actors (and views) reach them by system id.
  invoke: [
    {
      id: "session",
      systemId: "session",
      src: "session",
      input: ({ context }) => ({ token: context.token }),
      // Restored, signed in or out: what the URL asks may change (the same status again changes nothing).
      onSnapshot: {
        guard: { type: "sessionMoved", params: ({ event }) => statusOf(event.snapshot) },
        actions: [assign({ session: ({ event }) => statusOf(event.snapshot) }), "followRoute"]
      }
    },
    { id: "connectivity", systemId: "connectivity", src: "connectivity" }
  ],
  on: {
    "theme.toggle": {
      actions: [
        assign({ theme: ({ context }) => (context.theme === "dark" ? "light" : "dark") }),
        { type: "applyTheme", params: ({ context }) => ({ theme: context.theme }) }
      ]
    },
    // A modal already showing keeps its step: the request stands until the chain closes.
    "auth.open": {
      guard: "noModal",
      actions: assign({ auth: ({ event }) => ({ step: event.step, referralCode: event.referralCode }) })
    },
    "auth.closed": [
      // Leaves /login, so a reload does not open the modal again.
      { guard: "atLogin", actions: [assign({ auth: undefined }), { type: "navigate", params: { to: "/", replace: true } }] },
      { actions: assign({ auth: undefined }) }
    ],
    "route.changed": {
      guard: "routeMoved",
      actions: [assign({ route: ({ event }) => ({ pathname: event.pathname, referralCode: referralCodeOf(event.search) }) }), "followRoute"]
    },
    "flow.open": [
      // Another view of the same flow: it shares the actor.
      { guard: "flowOpen", actions: assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: context.flows[event.id]! + 1 }) }) },
      {
        actions: [
          assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: 1 }) }),
          { type: "spawnFlow", params: ({ event }) => ({ id: event.id, flow: event.flow, input: event.input }) }
        ]
      }
    ],
    "flow.close": [
      {
        guard: "lastUserOfFlow",
        actions: [
          assign({ flows: ({ context, event }) => Object.fromEntries(Object.entries(context.flows).filter(([id]) => id !== event.id)) }),
          stopChild(({ event }) => event.id)
        ]
      },
      { guard: "flowOpen", actions: assign({ flows: ({ context, event }) => ({ ...context.flows, [event.id]: context.flows[event.id]! - 1 }) }) }
    ]
  },
  initial: "Starting",
  states: {
    Starting: {
      tags: ["preloader"],
      type: "parallel",
      states: {
        Progress: {
          initial: "Ticking",
          states: {
            Ticking: {
              after: {
                tick: [
                  {
                    guard: "tickBelowCap",
                    target: "Ticking",
                    reenter: true,
                    actions: assign({ progress: ({ context }) => context.progress + TICK_STEP })
                  },
                  { target: "Capped", actions: assign({ progress: ({ context }) => Math.max(context.progress, TICK_CAP) }) }
                ]
              }
            },
            Capped: {}
          }
        },
        Pipeline: {
          initial: "Sports",
          onDone: [
            { guard: "sportsLoaded", target: "#app.Closing" },
            { target: "#app.Ready" }
          ],
          states: {
            Sports: {
              invoke: {
                id: "loadSports",
                src: "loadSports",
                onDone: {
                  target: "Ads",
                  actions: assign({
                    sports: ({ event }) => event.output,
                    sportsLoaded: true,
                    progress: reach(MARKS.sports),
                    message: MESSAGES.ads
                  })
                }
              },
              on: {
                "xstate.error.actor.loadSports": [
                  {
                    // The server ended the stored session (the API has cleared it): the user step has nothing to load.
                    guard: "staleToken",
                    target: "Sports",
                    reenter: true,
                    actions: [assign({ token: undefined }), sendTo("session", { type: "session.restoreFailed" })]
                  },
                  {
                    target: "Ads",
                    actions: [
                      { type: "logFailure", params: ({ event }) => ({ step: "sports", error: event.error }) },
                      assign({ progress: reach(MARKS.sports), message: MESSAGES.ads })
                    ]
                  }
                ]
              }
            },
            Ads: {
              invoke: {
                id: "loadAds",
                src: "loadAds",
                onDone: {
                  target: "User",
                  actions: assign({ banners: ({ event }) => event.output, progress: reach(MARKS.ads), message: MESSAGES.user })
                }
              },
              on: {
                "xstate.error.actor.loadAds": {
                  target: "User",
                  actions: [
                    { type: "logFailure", params: ({ event }) => ({ step: "ads", error: event.error }) },
                    assign({ progress: reach(MARKS.ads), message: MESSAGES.user })
                  ]
                }
              }
            },
            User: {
              always: [
                { guard: "hasToken", target: "LoadingUser" },
                // No stored token: no account to load.
                { target: "AppSettings", actions: assign({ progress: reach(MARKS.user), message: MESSAGES.appSettings }) }
              ]
            },
            LoadingUser: {
              invoke: {
                id: "loadUser",
                src: "loadUser",
                onDone: {
                  target: "AppSettings",
                  actions: [
                    assign({ progress: reach(MARKS.user), message: MESSAGES.appSettings }),
                    sendTo("session", ({ event }) => ({ type: "session.loaded" as const, user: event.output }))
                  ]
                }
              },
              on: {
                "xstate.error.actor.loadUser": {
                  target: "AppSettings",
                  actions: [
                    { type: "logFailure", params: ({ event }) => ({ step: "user", error: event.error }) },
                    assign({ progress: reach(MARKS.user), message: MESSAGES.appSettings }),
                    sendTo("session", { type: "session.restoreFailed" })
                  ]
                }
              }
            },
            AppSettings: {
              invoke: {
                id: "loadAppSettings",
                src: "loadAppSettings",
                onDone: {
                  target: "AllSettings",
                  actions: [
                    assign({ settings: ({ event }) => event.output, progress: reach(MARKS.appSettings), message: MESSAGES.allSettings }),
                    { type: "applySiteSettings", params: ({ event }) => ({ settings: event.output }) }
                  ]
                }
              },
              on: {
                "xstate.error.actor.loadAppSettings": {
                  target: "AllSettings",
                  actions: [
                    { type: "logFailure", params: ({ event }) => ({ step: "app settings", error: event.error }) },
                    assign({ progress: reach(MARKS.appSettings), message: MESSAGES.allSettings })
                  ]
                }
              }
            },
            AllSettings: {
              invoke: {
                id: "loadAllSettings",
                src: "loadAllSettings",
                onDone: {
                  target: "Done",
                  actions: assign({ allSettings: ({ event }) => event.output, progress: reach(MARKS.allSettings) })
                }
              },
              on: {
                "xstate.error.actor.loadAllSettings": {
                  target: "Done",
                  actions: [
                    { type: "logFailure", params: ({ event }) => ({ step: "all settings", error: event.error }) },
                    assign({ progress: reach(MARKS.allSettings) })
                  ]
                }
              }
            },
            Done: { type: "final", entry: assign({ progress: MARKS.done, message: MESSAGES.done }) }
          }
        }
      }
    },
    Closing: {
      tags: ["preloader"],
      after: { closeLoader: "Ready" }
    },
    Ready: {
      initial: "Idle",
      on: {
        "network.restored": [
          // Started offline: nothing was loaded (the offline screen showed), so load the site as on a first visit.
          { guard: not("sportsLoaded"), actions: "reloadPage" },
          // Back after a gap: the sports and the player's balances again (the sockets reconnect on their own side).
          { target: ".Refreshing", actions: sendTo("session", { type: "user.changed" }) }
        ]
      },
      states: {
        Idle: {
          on: { "catalogue.changed": "Spreading" }
        },
        /** Waits a random moment so every client does not reload at once. */
        Spreading: {
          after: { refreshSpread: "Refreshing" }
        },
        Refreshing: {
          invoke: {
            id: "loadSports",
            src: "loadSports",
            onDone: { target: "Idle", actions: assign({ sports: ({ event }) => event.output, sportsLoaded: true }) }
          },
          on: {
            "xstate.error.actor.loadSports": {
              target: "Idle",
              actions: { type: "logFailure", params: ({ event }) => ({ step: "sports refresh", error: event.error }) }
            }
          }
        }
      }
    }
  }
})
