import { startTransition, useEffect, useState } from "react"
import { AppActor } from "../app-actor.ts"

/**
 * True once the site has started (preloader gone) and the browser is idle:
 * optional code (carousels, side panels) waits for it, so it never competes
 * with what the player needs first. What it mounts renders as a transition:
 * React renders it in slices, so a carousel's slides are not one long task.
 */
export const useIdleAfterStart = () => {
  const ready = AppActor.useSelector((s) => !s.hasTag("preloader"))
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
