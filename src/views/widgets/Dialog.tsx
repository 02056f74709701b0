import { useEffect, useId, useRef } from "react"
import { Icon } from "./Icon.tsx"
import { topLayer } from "./topLayer.ts"

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])"

/**
 * A modal on the native <dialog>: `showModal()` makes the rest of the page
 * inert and Escape closes it; Tab wraps around inside. Focus goes back to
 * where it was when the dialog closes. While it is the topmost, toasts show
 * inside it (topLayer.ts).
 */
export const Dialog = ({ open, title, onClose, children, wide = false, testId }: {
  open: boolean
  title: string
  onClose: () => void
  children: React.ReactNode
  wide?: boolean
  testId?: string
}) => {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      const previous = document.activeElement as HTMLElement | null
      dialog.showModal()
      topLayer.opened(dialog)
      // showModal focuses the first button (the close button); the first field is where the player starts.
      const body = dialog.querySelector("[data-dialog-body]")
      ;(body?.querySelector<HTMLElement>("input:not([type=hidden]):not([type=checkbox]), textarea") ?? body?.querySelector<HTMLElement>("select, button"))?.focus()
      return () => {
        topLayer.closed(dialog)
        if (dialog.open) dialog.close()
        previous?.focus?.()
      }
    }
    return undefined
  }, [open])

  if (!open) return null
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid={testId}
      onKeyDown={(event) => {
        // Tab and Shift+Tab wrap around inside the dialog instead of leaving for the browser's own controls.
        if (event.key !== "Tab") return
        const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute("disabled") && el.getClientRects().length > 0)
        const first = focusable[0]
        const last = focusable[focusable.length - 1]
        if (!first || !last) return
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault()
          last.focus()
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault()
          first.focus()
        }
      }}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside the panel) closes.
        if (event.target === event.currentTarget) onClose()
      }}
      className={`m-auto w-[calc(100vw-24px)] rounded-xl border border-line bg-surface p-0 text-fg shadow-2xl backdrop:bg-black/60 ${wide ? "max-w-3xl" : "max-w-md"}`}
    >
      <div className="flex items-center justify-between border-b border-line px-5 py-3">
        <h2 id={titleId} className="m-0 text-lg font-700">{title}</h2>
        <button type="button" onClick={onClose} aria-label="Close" className="rounded-md p-1.5 text-muted hover:(bg-raised text-fg)">
          <Icon name="close" />
        </button>
      </div>
      <div data-dialog-body className="max-h-[80vh] overflow-y-auto px-5 py-4">{children}</div>
    </dialog>
  )
}
