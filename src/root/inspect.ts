import { createBrowserInspector } from "@statelyai/inspect"
import type { ActorRefLike, InspectionEvent } from "xstate"
import { createRedactor } from "./redact.ts"

/**
 * The Stately inspector, for developers: `npm run dev`, then open the site
 * with `?inspect`. Development only: src/root/devtools.ts imports this behind
 * `import.meta.env.DEV`, so no other build holds it.
 *
 * It watches the one actor system from its root: the app actor (`app`), the
 * session and sign-in modals, every flow a view opens and the actors those
 * invoke, under their own ids. Passwords, OTP codes and tokens are redacted
 * before they leave the page (src/root/redact.ts), in events and contexts.
 *
 * A pop-up window needs a user gesture: the inspector opens on the first click
 * or key press in the page, and shows everything from the page's start (the
 * events until then wait for it).
 */
export const startInspector = (): ((event: InspectionEvent) => void) => {
  const redact = createRedactor()
  const inspector = createBrowserInspector({
    autoStart: false,
    maxDeferredEvents: 10_000,
    sanitizeEvent: redact,
    sanitizeContext: redact
  })

  const open = () => {
    removeEventListener("pointerdown", open, true)
    removeEventListener("keydown", open, true)
    inspector.start()
  }
  addEventListener("pointerdown", open, true)
  addEventListener("keydown", open, true)
  console.info("[khel] Stately inspector: click in the page or press a key to open it (allow the pop-up for this site).")

  // Only actors that start: React's strict mode builds a second app actor in development that never runs.
  const unstarted = new Map<ActorRefLike, InspectionEvent>()
  return (event) => {
    if (event.type === "@xstate.actor") {
      unstarted.set(event.actorRef, event)
      return
    }
    const created = unstarted.get(event.actorRef)
    if (created) {
      unstarted.delete(event.actorRef)
      inspector.inspect.next?.(created)
    }
    inspector.inspect.next?.(event)
  }
}
