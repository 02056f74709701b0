import { use, useLayoutEffect, useRef } from "react"
import type { FlowInput, FlowName, FlowOpen, FlowRef } from "../machines/flows.ts"
import { AppActor } from "./app-actor.ts"
import { usePorts } from "./ports.ts"

export interface FlowOptions<K extends FlowName> {
  /** The flow's id and system id: the flow's name unless two of its kind are open at once (casino lobbies). */
  readonly id?: string
  /** Read when the flow opens; another input needs another id, or a remount. */
  readonly input: FlowInput<K>
}

/**
 * A flow of the app's actor system for as long as the calling component is
 * mounted: loads its logic (suspending until then), opens it with
 * `flow.open` (views that open the same id share one actor) and closes it
 * with `flow.close` when unmounted. Undefined until the app has spawned it,
 * which happens before the browser paints.
 */
export const useFlow = <K extends FlowName>(flow: K, options: FlowOptions<K>): FlowRef<K> | undefined => {
  use(usePorts().loadFlow(flow))
  const app = AppActor.useActorRef()
  const id = options.id ?? flow
  const input = useRef(options.input)
  input.current = options.input
  useLayoutEffect(() => {
    // The union of every flow's open event cannot be narrowed by the generic `flow`; the pair is typed by FlowOptions.
    app.send({ type: "flow.open", id, flow, input: input.current } as FlowOpen)
    return () => app.send({ type: "flow.close", id })
  }, [app, id, flow])
  // The child is found by its system id (the system is untyped; the flow's name gives the type).
  return AppActor.useSelector((): FlowRef<K> | undefined => app.system.get(id))
}
