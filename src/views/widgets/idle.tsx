import { startTransition, useDeferredValue, useEffect, useState } from "react"
import { AppActor } from "../app-actor.ts"

/**
 * True once the site has started (the preloader has gone). What it gates renders as a transition: the preloader
 * leaves at once, and what the page adds then (prices, side panels, the app shell) renders in slices, not in the
 * same long task.
 */
export const useStarted = () => useDeferredValue(AppActor.useSelector((s) => !s.hasTag("preloader")))

/** Its children once the site has started: the component around them re-renders when the preloader goes, not they. */
export const AfterStart = ({ children }: { readonly children: React.ReactNode }) => (useStarted() ? children : null)

/**
 * True once the site has started (preloader gone) and the browser is idle:
 * optional code (carousels, side panels) waits for it, so it never competes
 * with what the player needs first. What it mounts renders as a transition:
 * React renders it in slices, so a carousel's slides are not one long task.
 */
export const useIdleAfterStart = () => {
  const ready = useStarted()
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (!ready) return
    const becomeIdle = () => startTransition(() => setIdle(true))
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(becomeIdle, { timeout: 3000 })
      return () => cancelIdleCallback(handle)
    }
    const timer = setTimeout(becomeIdle, 1500)
    return () => clearTimeout(timer)
  }, [ready])
  return idle
}
