import { useEffect, useId, useRef } from "react"
import { Icon } from "./Icon.tsx"

/**
 * A modal on the native <dialog>: `showModal()` makes the rest of the page
 * inert (focus stays inside) and Escape closes it. Focus goes back to where
 * it was when the dialog closes.
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
      return () => {
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
      <div className="max-h-[80vh] overflow-y-auto px-5 py-4">{children}</div>
    </dialog>
  )
}
