// A namespace import: Node (the replay script) loads this CommonJS build without named exports, Vite the ES one.
import * as workboxWindow from "workbox-window"
import { fromCallback } from "xstate"
import { appUpdateMachine, type WorkerCommand, type WorkerReport } from "../../machines/appUpdate.machine.ts"
import { whenSettled } from "../idle.ts"

/**
 * The service worker of the built site (src/sw.ts → /sw.js), through
 * workbox-window: registered once the page has painted and gone idle (it then
 * downloads the shell in the background, which must not compete with the
 * first page), its waiting builds reported, checks and the take-over done
 * when the machine asks. Development (no built worker) and browsers without
 * service workers report `worker.unsupported`; so does a registration that
 * gives no registration back (Playwright's `serviceWorkers: "block"`).
 */
const worker = fromCallback<WorkerCommand, void, WorkerReport>(({ sendBack, receive }) => {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) {
    sendBack({ type: "worker.unsupported" })
    return
  }
  const workbox = new workboxWindow.Workbox("/sw.js")
  let stopped = false
  const report = (event: WorkerReport) => {
    if (!stopped) sendBack(event)
  }
  workbox.addEventListener("waiting", () => report({ type: "update.waiting" }))
  const cancel = whenSettled(() => {
    workbox.register().then(
      (registration) => report(registration ? { type: "worker.registered" } : { type: "worker.unsupported" }),
      () => report({ type: "worker.unsupported" })
    )
  })
  const focused = () => report({ type: "window.focused" })
  const visible = () => {
    if (document.visibilityState === "visible") focused()
  }
  addEventListener("focus", focused)
  document.addEventListener("visibilitychange", visible)
  receive((command) => {
    if (command.type === "worker.check") {
      // A failed check (offline) changes nothing: the next one asks again.
      workbox.update().catch(() => {})
      return
    }
    // Reload once the new build's worker controls this tab, not before: the page then loads the new build.
    workbox.addEventListener("controlling", () => location.reload())
    workbox.messageSkipWaiting()
  })
  return () => {
    stopped = true
    cancel()
    removeEventListener("focus", focused)
    document.removeEventListener("visibilitychange", visible)
  }
})

export default appUpdateMachine.provide({ actors: { worker } })
