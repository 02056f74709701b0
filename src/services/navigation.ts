import { Context, Effect, Layer } from "effect"
import type { Navigator } from "./navigator.ts"

export { createNavigator, type Navigator } from "./navigator.ts"

export class Navigation extends Context.Service<Navigation, {
  readonly navigator: Navigator
  go(to: string): Effect.Effect<void>
}>()("khel/Navigation") {
  static readonly make = (navigator: Navigator) =>
    Layer.succeed(Navigation, { navigator, go: (to) => Effect.sync(() => navigator.go(to)) })
}
