import { useEffect, useState } from "react"
import { AppActor } from "../app-actor.ts"

/**
 * True once the site has started (preloader gone) and the browser is idle:
 * optional code (carousels, side panels) waits for it, so it never competes
 * with what the player needs first.
 */
export const useIdleAfterStart = () => {
  const ready = AppActor.useSelector((s) => !s.hasTag("preloader"))
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (!ready) return
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 3000 })
      return () => cancelIdleCallback(handle)
    }
    const timer = setTimeout(() => setIdle(true), 1500)
    return () => clearTimeout(timer)
  }, [ready])
  return idle
}
