import { useSyncExternalStore } from "react"

/** The layout's breakpoints in px: UnoCSS's `sm:`, `md:`, `lg:` and `xl:` (uno.config.ts) and the views' media queries. */
export const BREAKPOINTS = { sm: 500, md: 768, lg: 992, xl: 1280 } as const
export type Breakpoint = keyof typeof BREAKPOINTS

/**
 * True while the window is at least as wide as `breakpoint`. Panels CSS hides on narrow screens are not
 * rendered there at all: a phone does not load, fetch and lay out a column it never shows.
 */
export const useAtLeast = (breakpoint: Breakpoint): boolean => {
  const query = `(min-width: ${BREAKPOINTS[breakpoint]}px)`
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query)
      list.addEventListener("change", onChange)
      return () => list.removeEventListener("change", onChange)
    },
    () => matchMedia(query).matches
  )
}
