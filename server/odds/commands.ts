import { Console, Effect } from "effect"
import { type AdminCommand, registerCommand } from "../admin/registry.ts"
import { Draws } from "./Draws.ts"

export const rotateFeedSecret: AdminCommand = {
  name: "rotate-feed-secret",
  usage: "",
  description:
    "Makes a new secret for the draws of every event made from now on (events made already keep theirs, so their published commitments hold), and erases retired secrets whose events have all settled and revealed their seeds (an hour after they retired at the earliest). docs/operations.md says when.",
  run: () =>
    Effect.gen(function*() {
      const draws = yield* Draws
      const { id, erased } = yield* draws.rotate
      yield* Console.log(`feed secret ${id} now draws every new event; ${erased} retired secret${erased === 1 ? "" : "s"} erased`)
    }).pipe(Effect.provide(Draws.layer))
}

registerCommand(rotateFeedSecret)
