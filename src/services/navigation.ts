import { Context, Effect, Layer } from "effect"

type Navigate = (to: string) => void

/**
 * Navigation for code outside React (the API's 401 handling). The router
 * registers itself with `bind` on start; until then a full page load is used.
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

export class Navigation extends Context.Service<Navigation, {
  readonly navigator: Navigator
  go(to: string): Effect.Effect<void>
}>()("khel/Navigation") {
  static readonly make = (navigator: Navigator) =>
    Layer.succeed(Navigation, { navigator, go: (to) => Effect.sync(() => navigator.go(to)) })
}
