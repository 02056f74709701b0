/** `replace`: the new page takes the current one's place in history (Back does not return to it). */
export interface NavigateOptions {
  readonly replace?: boolean | undefined
}

type Navigate = (to: string, options?: NavigateOptions) => void

/**
 * Navigation for code outside React (the API's 401 handling, the app
 * machine's routing), plain so the first page has it before the Effect
 * runtime loads. The router registers itself with `bind` on start; until
 * then a full page load is used.
 */
export const createNavigator = () => {
  let navigate: Navigate = (to, options) => {
    if (typeof location === "undefined") return
    if (options?.replace) location.replace(to)
    else location.assign(to)
  }
  return {
    go: (to: string, options?: NavigateOptions) => navigate(to, options),
    bind: (fn: Navigate) => {
      navigate = fn
    }
  }
}

export type Navigator = ReturnType<typeof createNavigator>

/** The site's one navigator (the `Navigation` service goes through it too). */
export const navigator = createNavigator()
