import { type ReactNode, useEffect, useRef } from "react"

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])"

/**
 * A modal: focus moves into it and stays there (Tab wraps), Escape closes it,
 * and focus goes back where it was when it closes.
 */
export const Dialog = (props: { readonly title: string; readonly onClose: () => void; readonly wide?: boolean; readonly children: ReactNode }) => {
  const box = useRef<HTMLDivElement>(null)
  const onClose = useRef(props.onClose)
  onClose.current = props.onClose
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    const first = box.current?.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? box.current)?.focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation()
        onClose.current()
      }
      if (event.key !== "Tab" || !box.current) return
      const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
      if (items.length === 0) return event.preventDefault()
      const [head, tail] = [items[0]!, items[items.length - 1]!]
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault()
        tail.focus()
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault()
        head.focus()
      }
    }
    document.addEventListener("keydown", onKey, true)
    return () => {
      document.removeEventListener("keydown", onKey, true)
      before?.focus()
    }
  }, [])
  return (
    <div className="backdrop" onMouseDown={(event) => event.target === event.currentTarget && props.onClose()}>
      <div ref={box} className={`dialog${props.wide ? " wide" : ""}`} role="dialog" aria-modal="true" aria-label={props.title} tabIndex={-1}>
        <div className="spread">
          <h2>{props.title}</h2>
          <button type="button" className="btn btn-small" onClick={props.onClose} aria-label="Close">✕</button>
        </div>
        {props.children}
      </div>
    </div>
  )
}
