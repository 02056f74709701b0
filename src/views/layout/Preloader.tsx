import { AppActor } from "../app-actor.ts"

/** Full-screen loader until the startup pipeline is done (SPEC sections 2, 4 and 9). */
export const Preloader = () => {
  const visible = AppActor.useSelector((s) => s.hasTag("preloader"))
  const progress = AppActor.useSelector((s) => s.context.progress)
  const message = AppActor.useSelector((s) => s.context.message)
  if (!visible) return null
  return (
    <div className="fixed inset-0 z-[100] flex flex-col items-center justify-center gap-5 bg-bg" data-testid="preloader">
      <img src="/favicon.svg" alt="" width={64} height={64} className="animate-pulse" />
      <div
        role="progressbar"
        aria-label="Loading Khel"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-2 w-64 overflow-hidden rounded-full bg-raised"
      >
        <div className="h-full bg-brand transition-[width] duration-150" style={{ width: `${progress}%` }} />
      </div>
      <p className="m-0 text-sm text-muted" aria-live="polite">
        <span className="font-700 text-fg" data-testid="preloader-percent">{progress}%</span> · {message}
      </p>
    </div>
  )
}
