import { assign, fromPromise, setup } from "xstate"
import { ALL_CATEGORY, type Lobby } from "../domain/casino.ts"
import type { CasinoGame } from "../schema/casino.ts"
import type { Failure } from "../schema/errors.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * A casino lobby (live casino, slots, SA Gaming, or the Top Casino panel):
 * its games, the category on show, and the launch flow of SPEC sections 5, 7
 * and 8. A visitor is told to log in; a signed-in player's launch asks the
 * server for the game's URL: an empty one means 'Game Not Available',
 * otherwise the URL opens in the same window. A refused launch (a credit
 * player the operator keeps out, say) shows the server's message.
 */

export interface CasinoInput {
  readonly lobby: Lobby
}

export interface CasinoContext {
  readonly lobby: Lobby
  readonly games: ReadonlyArray<CasinoGame>
  readonly category: string
  /** The game being launched. */
  readonly game: CasinoGame | undefined
}

export type CasinoEvent =
  | { type: "games.reload" }
  | { type: "category.select"; category: string }
  | { type: "game.launch"; game: CasinoGame; signedIn: boolean }

/** How long the lobby waits for the browser to leave before it takes launches again. */
export const NAVIGATION_GRACE_MS = 5000

export const casinoMachine = setup({
  types: {
    context: {} as CasinoContext,
    events: {} as CasinoEvent | CallFailed<"launchGame">,
    input: {} as CasinoInput
  },
  actors: {
    loadGames: fromPromise<ReadonlyArray<CasinoGame>, { lobby: Lobby }>(unprovided("casino", "loadGames")),
    /** The game's URL, "" when it is not available; a refusal shows the server's message. */
    launchGame: fromPromise<string, { lobby: Lobby; game: CasinoGame }>(unprovided("casino", "launchGame"))
  },
  actions: {
    /** 'Please Login to Play' / 'Hold up! You need to log in to play!' */
    notifyLoginRequired: unprovidedAction("casino", "notifyLoginRequired"),
    /** 'Game Not Available' / 'This game is currently unavailable. Check back soon!' */
    notifyUnavailable: unprovidedAction("casino", "notifyUnavailable"),
    /** Opens the game in the same window. */
    openGame: unprovidedAction<{ url: string }>("casino", "openGame"),
    /** Why a launch failed: the server's message (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("casino", "toastFailure")
  },
  guards: {
    signedOut: ({ event }) => event.type === "game.launch" && !event.signedIn,
    noUrl: (_, params: { url: string }) => params.url === ""
  },
  delays: {
    navigationGrace: NAVIGATION_GRACE_MS
  }
}).createMachine({
  id: "casino",
  context: ({ input }) => ({ lobby: input.lobby, games: [], category: ALL_CATEGORY, game: undefined }),
  initial: "Loading",
  states: {
    Loading: {
      tags: ["loading"],
      invoke: {
        id: "loadGames",
        src: "loadGames",
        input: ({ context }) => ({ lobby: context.lobby }),
        onDone: { target: "Ready", actions: assign({ games: ({ event }) => event.output }) },
        onError: "Failed"
      }
    },
    Failed: {
      tags: ["failed"],
      on: { "games.reload": "Loading" }
    },
    Ready: {
      on: {
        "category.select": { actions: assign({ category: ({ event }) => event.category }) }
      },
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "game.launch": [
              { guard: "signedOut", actions: "notifyLoginRequired" },
              { target: "Launching", actions: assign({ game: ({ event }) => event.game }) }
            ]
          }
        },
        Launching: {
          tags: ["launching"],
          invoke: {
            id: "launchGame",
            src: "launchGame",
            input: ({ context }) => ({ lobby: context.lobby, game: context.game! }),
            onDone: [
              { guard: { type: "noUrl", params: ({ event }) => ({ url: event.output }) }, target: "Idle", actions: "notifyUnavailable" },
              { target: "Opening", actions: { type: "openGame", params: ({ event }) => ({ url: event.output }) } }
            ]
          },
          on: {
            // The toast shows the server's message.
            "xstate.error.actor.launchGame": { target: "Idle", actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } }
          }
        },
        Opening: {
          tags: ["launching"],
          // Leaving the page ends the machine; if the browser stays (blocked, or back from the cache), take launches again.
          after: { navigationGrace: "Idle" }
        }
      }
    }
  }
})
