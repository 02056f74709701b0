import { isFlash } from "../schema/guards.ts"
import type { Toast, ToastType } from "../schema/notices.ts"

/**
 * The toast queue, plain (no Effect): the first page shows toasts before the
 * Effect runtime loads; the `Notices` service (notices.ts) writes to the same
 * store.
 */

export interface Notice extends Toast {
  readonly id: number
}

type Listener = () => void

/** Toasts close by themselves after this long (SPEC section 9, desktop reading). */
export const TOAST_AUTOCLOSE_MS = 3000

/** At most this many toasts show at once: a newer one replaces the oldest, so a few in a row stay readable. */
export const TOASTS_AT_ONCE = 2

/**
 * The toast queue. Views subscribe with `useSyncExternalStore(notices.subscribe, notices.snapshot)`;
 * everything else only calls `show`.
 */
export const createNoticeStore = (autoCloseMs = TOAST_AUTOCLOSE_MS) => {
  let notices: ReadonlyArray<Notice> = []
  let nextId = 1
  const listeners = new Set<Listener>()
  const emit = () => listeners.forEach((listener) => listener())

  const dismiss = (id: number) => {
    notices = notices.filter((notice) => notice.id !== id)
    emit()
  }

  const show = (type: ToastType, message: string, subMessage?: string) => {
    const id = nextId++
    // The same message twice in a row (double click, retry) shows once.
    notices = [
      ...notices.filter((n) => !(n.message === message && n.type === type)),
      { id, show: true, type, message, ...(subMessage ? { subMessage } : {}) }
    ].slice(-TOASTS_AT_ONCE)
    emit()
    setTimeout(() => dismiss(id), autoCloseMs)
  }

  return {
    show,
    dismiss,
    snapshot: () => notices,
    subscribe: (listener: Listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}

export type NoticeStore = ReturnType<typeof createNoticeStore>

const FLASH_KEY = "khel.flash"

/** Keeps a toast across a full page load (login reloads the site), shown by `showFlash` on the next start. */
export const flash = (type: ToastType, message: string, subMessage?: string) => {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ type, message, subMessage }))
  } catch {
    // No storage: the toast is simply lost.
  }
}

export const showFlash = (store: NoticeStore) => {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY)
    if (!raw) return
    sessionStorage.removeItem(FLASH_KEY)
    const flashed: unknown = JSON.parse(raw)
    if (isFlash(flashed)) store.show(flashed.type, flashed.message, flashed.subMessage)
  } catch {
    // A damaged flash is dropped.
  }
}

/** The site's one toast queue. */
export const noticeStore = createNoticeStore()
