type Navigate = (to: string) => void

/**
 * Navigation for code outside React (the API's 401 handling), plain so the
 * first page has it before the Effect runtime loads. The router registers
 * itself with `bind` on start; until then a full page load is used.
 */
export const createNavigator = () => {
  let navigate: Navigate = (to) => {
    if (typeof location !== "undefined") location.assign(to)
  }
  return {
    go: (to: string) => navigate(to),
    bind: (fn: Navigate) => {
      navigate = fn
    }
  }
}

export type Navigator = ReturnType<typeof createNavigator>

/** The site's one navigator (the `Navigation` service goes through it too). */
export const navigator = createNavigator()
