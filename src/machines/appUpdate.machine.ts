import { fromCallback, sendTo, setup } from "xstate"
import { UPDATE_CHECK_MS } from "../domain/pwa.ts"
import { unprovided } from "./unprovided.ts"

/**
 * The installable app's worker and its updates (the `appUpdate` flow, open
 * for the whole visit). The provided `worker` registers the service worker
 * once the page has painted and reports what it sees; this machine decides
 * when to look for a new build — every hour and whenever the window gets
 * focus — and, when one is waiting, shows "A new version is ready — Reload".
 * It never reloads by itself: a reload would lose a half-typed stake, so the
 * new build takes over only when the player chooses Reload.
 */

/** What the worker actor reports. */
export type WorkerReport =
  /** Registered: this tab runs the current build (whether or not a worker controlled its load). */
  | { type: "worker.registered" }
  /** No service worker here (an old browser, a test that blocks them, development). */
  | { type: "worker.unsupported" }
  /** A new build's worker is installed and waiting for the player. */
  | { type: "update.waiting" }
  /** The window got focus again: a moment to look for a new build. */
  | { type: "window.focused" }

/** What the machine asks of the worker actor. */
export type WorkerCommand =
  /** Look for a new build now (`registration.update()`). */
  | { type: "worker.check" }
  /** Let the waiting worker take over, then reload once it controls the page. */
  | { type: "worker.activate" }

export type AppUpdateEvent =
  | WorkerReport
  /** The player chose Reload. */
  | { type: "update.reload" }
  /** The player put it off: the prompt comes back at the next hourly check. */
  | { type: "update.later" }

export const UPDATE_READY = { message: "A new version is ready", action: "Reload" } as const

export const appUpdateMachine = setup({
  types: {
    events: {} as AppUpdateEvent,
    children: {} as { worker: "worker" }
  },
  actors: {
    worker: fromCallback<WorkerCommand, void, WorkerReport>(unprovided("appUpdate", "worker"))
  },
  actions: {
    check: sendTo("worker", { type: "worker.check" } satisfies WorkerCommand),
    activate: sendTo("worker", { type: "worker.activate" } satisfies WorkerCommand)
  },
  delays: { hourly: UPDATE_CHECK_MS }
}).createMachine({
  id: "appUpdate",
  invoke: { id: "worker", src: "worker" },
  initial: "Registering",
  states: {
    Registering: {
      on: {
        "worker.registered": "Current",
        "worker.unsupported": "Unsupported",
        // A build was already waiting when this tab opened (another tab put it off).
        "update.waiting": "Ready"
      }
    },
    Unsupported: { type: "final" },
    /** This tab runs the newest build it knows of. */
    Current: {
      after: { hourly: { target: "Current", reenter: true, actions: "check" } },
      on: {
        "window.focused": { actions: "check" },
        "update.waiting": "Ready"
      }
    },
    /** The prompt: "A new version is ready — Reload". */
    Ready: {
      tags: ["updateReady"],
      on: {
        "update.reload": "Reloading",
        "update.later": "Postponed"
      }
    },
    Postponed: {
      after: { hourly: "Ready" }
    },
    /** The new worker takes over; the page reloads once it controls it. */
    Reloading: {
      tags: ["busy"],
      entry: "activate"
    }
  }
})
