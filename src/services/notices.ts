import { Context, Effect, Layer, Schema } from "effect"
import { type Toast, ToastType } from "../schema/notices.ts"

export interface Notice extends Toast {
  readonly id: number
}

type Listener = () => void

/** Toasts close by themselves after this long (SPEC section 9, desktop reading). */
export const TOAST_AUTOCLOSE_MS = 3000

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
    ].slice(-4)
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

const Flash = Schema.Struct({ type: ToastType, message: Schema.String, subMessage: Schema.optionalKey(Schema.String) })
const decodeFlash = Schema.decodeUnknownOption(Schema.fromJsonString(Flash))

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
    const flashed = decodeFlash(raw)
    if (flashed._tag === "Some") store.show(flashed.value.type, flashed.value.message, flashed.value.subMessage)
  } catch {
    // A damaged flash is dropped.
  }
}

export class Notices extends Context.Service<Notices, {
  readonly store: NoticeStore
  success(message: string, subMessage?: string): Effect.Effect<void>
  warning(message: string, subMessage?: string): Effect.Effect<void>
  error(message: string, subMessage?: string): Effect.Effect<void>
}>()("khel/Notices") {
  static readonly make = (store: NoticeStore) =>
    Layer.succeed(Notices, {
      store,
      success: (message, subMessage) => Effect.sync(() => store.show("success", message, subMessage)),
      warning: (message, subMessage) => Effect.sync(() => store.show("warning", message, subMessage)),
      error: (message, subMessage) => Effect.sync(() => store.show("error", message, subMessage))
    })
}
