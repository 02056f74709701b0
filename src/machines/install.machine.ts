import { type AnyActorRef, assign, fromCallback, fromPromise, setup } from "xstate"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * Adding the site to the home screen (the `install` flow, open for the whole
 * visit). Never on first paint: the offer comes at a sensible moment — the
 * player's first bet or deposit (`install.moment`, from the bet slip and the
 * deposit form) — once per browser, and the profile menu's
 * Install entry is there whenever the browser can install. Chromium hands the
 * site its install prompt (`beforeinstallprompt`); iOS has none, so there the
 * offer is a hint: Share, then Add to Home Screen.
 */

export interface InstallContext {
  /** This browser was offered it (stored): no second offer, only the menu entry. */
  readonly offered: boolean
}

/** What the browser reports; `offered`: it was offered here before. */
export type InstallReport =
  /** The browser's install prompt is ready (Chromium). */
  | { type: "install.available"; offered: boolean }
  /** iOS: no prompt, the hint instead. */
  | { type: "install.ios"; offered: boolean }
  /** Installed now, or this page runs as the installed app. */
  | { type: "install.installed" }

export type InstallEvent =
  | InstallReport
  /** A first bet or deposit: a moment to offer it. */
  | { type: "install.moment" }
  /** The profile menu's Install entry. */
  | { type: "install.open" }
  | { type: "install.accept" }
  | { type: "install.dismiss" }

export const INSTALL = {
  offer: "Add Khel to your home screen: it opens in a second, even on a weak signal.",
  iosHint: "To install Khel, tap Share, then Add to Home Screen.",
  accept: "Install",
  dismiss: "Not now"
} as const

/** What the player chose at the browser's install prompt. */
export type PromptChoice = "accepted" | "dismissed"

/** The event the bet slip and the deposit form send after a bet or a deposit: a moment to offer the install. */
export const INSTALL_MOMENT = { type: "install.moment" } as const satisfies InstallEvent

/** The install flow of the system, if the page has it (its id and system id are `install`). */
export const installFlow = (system: { readonly get: (id: string) => AnyActorRef | undefined }): AnyActorRef | undefined => system.get("install")

export const installMachine = setup({
  types: {
    context: {} as InstallContext,
    events: {} as InstallEvent
  },
  actors: {
    /** The browser's `beforeinstallprompt` and `appinstalled`, the platform and the display mode. */
    browser: fromCallback<InstallEvent, void, InstallReport>(unprovided("install", "browser")),
    /** Shows the browser's install prompt; whether the player installed. */
    prompt: fromPromise<PromptChoice>(unprovided("install", "prompt"))
  },
  actions: {
    /** Remembers in this browser that it was offered. */
    rememberOffered: unprovidedAction("install", "rememberOffered")
  },
  guards: {
    notOffered: ({ context }) => !context.offered,
    /** The player installed at the browser's prompt. */
    accepted: (_, params: { choice: PromptChoice }) => params.choice === "accepted"
  }
}).createMachine({
  id: "install",
  context: { offered: false },
  invoke: { id: "browser", src: "browser" },
  initial: "Waiting",
  on: { "install.installed": ".Installed" },
  states: {
    /** Nothing to offer (yet): the browser has not said it can install. */
    Waiting: {
      on: {
        "install.available": { target: "Available", actions: assign({ offered: ({ event }) => event.offered }) },
        "install.ios": { target: "Ios", actions: assign({ offered: ({ event }) => event.offered }) }
      }
    },
    Available: {
      tags: ["installable"],
      initial: "Quiet",
      states: {
        Quiet: {
          on: {
            "install.moment": { guard: "notOffered", target: "Offering" },
            "install.open": "Prompting"
          }
        },
        /** The site's own banner: Install or Not now. */
        Offering: {
          tags: ["offering"],
          entry: [assign({ offered: true }), "rememberOffered"],
          on: {
            "install.accept": "Prompting",
            "install.open": "Prompting",
            "install.dismiss": "Quiet"
          }
        },
        Prompting: {
          tags: ["busy"],
          invoke: {
            id: "prompt",
            src: "prompt",
            // The browser's prompt shows once per `beforeinstallprompt`: after a no, nothing until it offers again.
            onDone: [
              { guard: { type: "accepted", params: ({ event }) => ({ choice: event.output }) }, target: "#install.Installed" },
              { target: "#install.Waiting" }
            ],
            onError: "#install.Waiting"
          }
        }
      }
    },
    Ios: {
      tags: ["installable"],
      initial: "Quiet",
      states: {
        Quiet: {
          on: {
            "install.moment": { guard: "notOffered", target: "Hint" },
            "install.open": "Hint"
          }
        },
        /** "Tap Share, then Add to Home Screen." */
        Hint: {
          tags: ["offering", "hint"],
          entry: [assign({ offered: true }), "rememberOffered"],
          on: { "install.dismiss": "Quiet" }
        }
      }
    },
    Installed: { tags: ["installed"] }
  }
})
