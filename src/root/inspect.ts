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
 * before anything leaves the page (src/root/redact.ts).
 *
 * The inspector is a pop-up window: it opens at once where the browser allows
 * pop-ups for this site; where it blocks them (Chrome's default), it opens with
 * the first click or key press in the page, and still shows everything from
 * the page's start (the events wait for it).
 */
const INSPECTOR_URL = "https://stately.ai/inspect"

export const startInspector = (): ((event: InspectionEvent) => void) => {
  const inspector = createBrowserInspector({
    url: INSPECTOR_URL,
    autoStart: false,
    maxDeferredEvents: 10_000,
    // What leaves the page, as JSON, secrets redacted: events, contexts, and the inputs of calls (a login's form).
    serialize: createRedactor()
  })
  inspector.start()
  if (!inspector.adapter.targetWindow) {
    // Blocked: a user gesture may open it. The page still gets the click or key.
    const open = () => {
      removeEventListener("click", open, true)
      removeEventListener("keydown", open, true)
      inspector.adapter.targetWindow = window.open(INSPECTOR_URL, "xstateinspector")
    }
    addEventListener("click", open, true)
    addEventListener("keydown", open, true)
    console.info("[khel] Stately inspector: the browser blocked its pop-up; it opens with your first click or key press (or allow pop-ups for this site).")
  }

  // Only actors that run: React's strict mode builds a second app actor in development that never starts (an actor
  // shows once it receives an event, its start included).
  const unstarted = new Map<ActorRefLike, InspectionEvent>()
  return (event) => {
    if (event.type === "@xstate.actor") {
      unstarted.set(event.actorRef, event)
      return
    }
    if (event.type !== "@xstate.event" && event.type !== "@xstate.snapshot") return
    const created = unstarted.get(event.actorRef)
    if (created) {
      unstarted.delete(event.actorRef)
      inspector.inspect.next?.(created)
    }
    inspector.inspect.next?.(event)
  }
}
