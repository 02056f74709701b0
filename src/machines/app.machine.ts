import { assign, fromPromise, sendTo, setup } from "xstate"
import type { AllAppSettings, Banner, SiteSettings } from "../schema/settings.ts"
import type { SportsData } from "../schema/sports.ts"
import type { User } from "../schema/user.ts"
import type { Theme } from "../services/storage.ts"
import { startup } from "./app.actors.ts"
import { authModalMachine } from "./authModal.machine.ts"
import { sessionMachine } from "./session.machine.ts"

/**
 * The root machine: the startup pipeline behind the preloader (SPEC sections 4
 * and 9) and the theme. Startup order: sports, ads, user (only with a stored
 * token), app settings, all settings; each step moves the bar to its mark,
 * while a simulated tick adds 2 % every 50 ms up to 95 %. A failed step is
 * logged and loading goes on. The loader closes 1 s after completion, or at
 * once when the sports load failed.
 */

export interface AppInput {
  readonly token: string | undefined
  readonly theme: Theme
}

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
}

export type AppEvent =
  | { type: "theme.toggle" }
  | { type: "sports.refresh" }

/** Progress marks of SPEC section 4. */
export const MARKS = { sports: 20, ads: 40, user: 60, appSettings: 80, allSettings: 90, done: 100 } as const
export const TICK_MS = 50
export const TICK_STEP = 2
export const TICK_CAP = 95
export const CLOSE_DELAY_MS = 1000

export const MESSAGES = {
  sports: "Loading sports and live events…",
  ads: "Loading offers…",
  user: "Loading your account…",
  appSettings: "Loading site settings…",
  allSettings: "Almost there…",
  done: "Ready"
} as const

const reach = (mark: number) => ({ context }: { context: AppContext }) => Math.max(context.progress, mark)

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
    children: {} as { session: "session"; authModal: "authModal" }
  },
  actors: {
    session: sessionMachine,
    authModal: authModalMachine,
    loadSports: fromPromise<SportsData>(startup.sports),
    loadAds: fromPromise<ReadonlyArray<Banner>>(startup.ads),
    loadUser: fromPromise<User>(startup.user),
    loadAppSettings: fromPromise<SiteSettings>(startup.appSettings),
    loadAllSettings: fromPromise<AllAppSettings>(startup.allSettings)
  },
  actions: {
    /** Startup failures are only logged (SPEC section 8). */
    logFailure: (_, params: { step: string; error: unknown }) => {
      console.warn(`[startup] ${params.step} failed`, params.error)
    },
    applyTheme: (_, _params: { theme: Theme }) => {},
    applySiteSettings: (_, _params: { settings: SiteSettings }) => {}
  },
  guards: {
    hasToken: ({ context }) => context.token !== undefined,
    sportsLoaded: ({ context }) => context.sportsLoaded
  },
  delays: {
    tick: TICK_MS,
    closeLoader: CLOSE_DELAY_MS
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
    theme: input.theme
  }),
  entry: { type: "applyTheme", params: ({ context }) => ({ theme: context.theme }) },
  // The session and the sign-in modals live as long as the app; other actors reach them by system id.
  invoke: [
    { id: "session", systemId: "session", src: "session", input: ({ context }) => ({ token: context.token }) },
    { id: "authModal", systemId: "authModal", src: "authModal", input: {} }
  ],
  on: {
    "theme.toggle": {
      actions: [
        assign({ theme: ({ context }) => (context.theme === "dark" ? "light" : "dark") }),
        { type: "applyTheme", params: ({ context }) => ({ theme: context.theme }) }
      ]
    }
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
                    guard: ({ context }) => context.progress + TICK_STEP < TICK_CAP,
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
                },
                onError: {
                  target: "Ads",
                  actions: [
                    { type: "logFailure", params: ({ event }) => ({ step: "sports", error: event.error }) },
                    assign({ progress: reach(MARKS.sports), message: MESSAGES.ads })
                  ]
                }
              }
            },
            Ads: {
              invoke: {
                id: "loadAds",
                src: "loadAds",
                onDone: {
                  target: "User",
                  actions: assign({ banners: ({ event }) => event.output, progress: reach(MARKS.ads), message: MESSAGES.user })
                },
                onError: {
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
                },
                onError: {
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
                },
                onError: {
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
                },
                onError: {
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
      on: {
        "sports.refresh": ".Refreshing"
      },
      initial: "Idle",
      states: {
        Idle: {},
        Refreshing: {
          invoke: {
            id: "loadSports",
            src: "loadSports",
            onDone: { target: "Idle", actions: assign({ sports: ({ event }) => event.output, sportsLoaded: true }) },
            onError: {
              target: "Idle",
              actions: { type: "logFailure", params: ({ event }) => ({ step: "sports refresh", error: event.error }) }
            }
          }
        }
      }
    }
  }
})
