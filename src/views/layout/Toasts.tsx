import { useSyncExternalStore } from "react"
import { createPortal } from "react-dom"
import { usePorts } from "../ports.ts"
import { Icon } from "../widgets/Icon.tsx"
import { topLayer } from "../widgets/topLayer.ts"

const TONE = {
  success: "border-ok",
  warning: "border-warn",
  error: "border-bad"
} as const

const noDialog = () => undefined

/**
 * Toasts from the Notices service (at most two; each closes itself after 3 s). Above everything, modals included:
 * while a modal is open they render inside it (a modal is in the browser's top layer and leaves the rest of the
 * page inert). On a phone they sit at the bottom, above the bottom bar and clear of the header's balances, or at
 * the top over a modal, clear of its buttons.
 */
export const Toasts = () => {
  const feed = usePorts().notices
  const notices = useSyncExternalStore(feed.subscribe, feed.snapshot, feed.snapshot)
  const modal = useSyncExternalStore(topLayer.subscribe, topLayer.top, noDialog)
  const list = (
    <div
      className={`pointer-events-none fixed left-3 right-3 z-[90] mx-auto flex max-w-[360px] flex-col gap-2 lg:(bottom-auto left-auto top-16 w-[360px]) ${modal ? "top-3" : "bottom-20"}`}
      aria-live="polite"
      data-testid="toasts"
    >
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
  return modal ? createPortal(list, modal) : list
}
