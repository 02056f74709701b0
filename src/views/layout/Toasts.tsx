import { useSyncExternalStore } from "react"
import { usePorts } from "../ports.ts"
import { Icon } from "../widgets/Icon.tsx"

const TONE = {
  success: "border-ok",
  warning: "border-warn",
  error: "border-bad"
} as const

/** Toasts from the Notices service; each closes itself after 3 s. */
export const Toasts = () => {
  const feed = usePorts().notices
  const notices = useSyncExternalStore(feed.subscribe, feed.snapshot, feed.snapshot)
  return (
    <div className="pointer-events-none fixed right-3 top-16 z-[90] flex w-[min(360px,calc(100vw-24px))] flex-col gap-2" aria-live="polite">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role={notice.type === "error" ? "alert" : "status"}
          data-testid={`toast-${notice.type}`}
          className={`toast-in pointer-events-auto card flex items-start gap-3 border-l-4 p-3 shadow-lg ${TONE[notice.type]}`}
        >
          <div className="min-w-0 flex-1">
            <p className="m-0 font-700">{notice.message}</p>
            {notice.subMessage ? <p className="m-0 mt-0.5 text-xs text-muted">{notice.subMessage}</p> : null}
          </div>
          <button type="button" aria-label="Dismiss" className="rounded p-1 text-muted hover:text-fg" onClick={() => feed.dismiss(notice.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
