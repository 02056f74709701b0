import { useSyncExternalStore } from "react"
import type { NoticeStore } from "../../../services/noticeStore.ts"

/** The desk's toasts, bottom right, above any dialog; read aloud as they come. */
export const Toasts = ({ store }: { readonly store: NoticeStore }) => {
  const notices = useSyncExternalStore(store.subscribe, store.snapshot)
  return (
    <div className="toasts" role="status" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className={`toast toast-${notice.type}`}>
          <div>{notice.message}</div>
          {notice.subMessage && <div className="muted">{notice.subMessage}</div>}
        </div>
      ))}
    </div>
  )
}
