/**
 * The modal dialogs open now, the topmost last. A modal <dialog> sits in the browser's top layer, above any
 * z-index, and makes everything outside it inert (unclickable, unannounced), so whatever must show above a modal
 * (the toasts) renders inside the topmost one.
 */
type Listener = () => void

let open: ReadonlyArray<HTMLDialogElement> = []
const listeners = new Set<Listener>()
const emit = () => listeners.forEach((listener) => listener())

export const topLayer = {
  opened: (dialog: HTMLDialogElement) => {
    open = [...open.filter((d) => d !== dialog), dialog]
    emit()
  },
  closed: (dialog: HTMLDialogElement) => {
    open = open.filter((d) => d !== dialog)
    emit()
  },
  /** The topmost modal, or undefined when none is open. */
  top: (): HTMLDialogElement | undefined => open[open.length - 1],
  subscribe: (listener: Listener) => {
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }
}
