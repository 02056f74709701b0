import { AppActor } from "../app-actor.ts"
import { PreloaderView } from "./PreloaderView.tsx"

/**
 * Full-screen loader until the startup pipeline is done (SPEC sections 2, 4 and 9). Only this component reads
 * the progress, so the 50 ms ticks re-render the loader and nothing else.
 */
export const Preloader = () => {
  const visible = AppActor.useSelector((s) => s.hasTag("preloader"))
  const progress = AppActor.useSelector((s) => s.context.progress)
  const message = AppActor.useSelector((s) => s.context.message)
  return visible ? <PreloaderView progress={progress} message={message} /> : null
}
