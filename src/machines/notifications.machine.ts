import { fromPromise, setup } from "xstate"
import type { Failure } from "../schema/errors.ts"
import { type CallFailed, failedWith } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"

/**
 * A signed-in player's notifications on this browser (Web Push), opt-in from
 * the profile menu and never asked on a first visit: the browser asks for
 * permission only when the player turns them on. Checking waits for the
 * service worker, then finds whether this browser already sends them to this
 * player. Turning on asks permission, subscribes with the server's key and
 * stores the subscription for the session; turning off removes both. A
 * browser that refused permission stays Blocked until the player allows it in
 * the browser's settings.
 */

export interface NotificationsInput {
  readonly userId: string
}

export interface NotificationsContext {
  readonly userId: string
}

/** Whether this browser can, and does, send this player notifications. */
export type PushStatus = "unsupported" | "blocked" | "off" | "on"

export type NotificationsEvent =
  | { type: "notifications.enable" }
  | { type: "notifications.disable" }

export const NOTIFICATIONS = {
  on: { message: "Notifications are on", subMessage: "Deposits, withdrawals, wins and your matches' start" },
  off: { message: "Notifications are off" },
  blocked: { message: "Notifications are blocked", subMessage: "Allow them for this site in your browser's settings" }
} as const

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent | CallFailed<"disable" | "enable">,
    input: {} as NotificationsInput
  },
  actors: {
    status: fromPromise<PushStatus, { userId: string }>(unprovided("notifications", "status")),
    /** Permission, the subscription with the server's key, and the server's record of it. */
    enable: fromPromise<void, { userId: string }>(unprovided("notifications", "enable")),
    disable: fromPromise<void, { userId: string }>(unprovided("notifications", "disable"))
  },
  actions: {
    notifyOn: unprovidedAction("notifications", "notifyOn"),
    notifyOff: unprovidedAction("notifications", "notifyOff"),
    /** How to unblock them (the page cannot ask again once the browser refused). */
    notifyBlocked: unprovidedAction("notifications", "notifyBlocked"),
    /** A failure's own message, as a warning. */
    warn: unprovidedAction<{ message: string }>("notifications", "warn")
  },
  guards: {
    blocked: failedWith("NotificationsBlocked"),
    /** The check found this status. */
    statusIs: (_, params: { status: PushStatus; expected: PushStatus }) => params.status === params.expected
  }
}).createMachine({
  id: "notifications",
  context: ({ input }) => ({ userId: input.userId }),
  initial: "Checking",
  states: {
    Checking: {
      tags: ["checking"],
      invoke: {
        id: "status",
        src: "status",
        input: ({ context }) => ({ userId: context.userId }),
        onDone: [
          { guard: { type: "statusIs", params: ({ event }) => ({ status: event.output, expected: "on" }) }, target: "On" },
          { guard: { type: "statusIs", params: ({ event }) => ({ status: event.output, expected: "off" }) }, target: "Off" },
          { guard: { type: "statusIs", params: ({ event }) => ({ status: event.output, expected: "blocked" }) }, target: "Blocked" },
          { target: "Unsupported" }
        ],
        onError: "Unsupported"
      }
    },
    /** No service worker or no Web Push here: the menu offers nothing. */
    Unsupported: { tags: ["unsupported"] },
    Off: {
      on: { "notifications.enable": "Enabling" }
    },
    Enabling: {
      tags: ["busy"],
      invoke: {
        id: "enable",
        src: "enable",
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: "On", actions: "notifyOn" }
      },
      on: {
        "xstate.error.actor.enable": [
          { guard: "blocked", target: "Blocked", actions: "notifyBlocked" },
          { target: "Off", actions: { type: "warn", params: ({ event }) => ({ message: (event.error as Failure).message }) } }
        ]
      }
    },
    On: {
      tags: ["on"],
      on: { "notifications.disable": "Disabling" }
    },
    Disabling: {
      tags: ["busy", "on"],
      invoke: {
        id: "disable",
        src: "disable",
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: "Off", actions: "notifyOff" }
      },
      on: { "xstate.error.actor.disable": { target: "On", actions: { type: "warn", params: ({ event }) => ({ message: (event.error as Failure).message }) } } }
    },
    Blocked: {
      tags: ["blocked"],
      on: { "notifications.enable": { actions: "notifyBlocked" } }
    }
  }
})
