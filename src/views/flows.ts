import { useLayoutEffect, useRef } from "react"
import type { FlowInput, FlowName, FlowOpen, FlowRef } from "../machines/flows.ts"
import { AppActor } from "./app-actor.ts"
import { usePorts } from "./ports.ts"

export interface FlowOptions<K extends FlowName> {
  /** The flow's id and system id: the flow's name unless two of its kind are open at once (casino lobbies). */
  readonly id?: string
  /** Read when the flow opens; another input needs another id, or a remount. */
  readonly input: FlowInput<K>
  /** False: the flow is not opened (a visitor has no bets to load); true by default. */
  readonly enabled?: boolean
}

/**
 * A flow of the app's actor system for as long as the calling component is
 * mounted: loads its logic (once, its own chunk), then opens it with
 * `flow.open` (views that open the same id share one actor) and closes it
 * with `flow.close` when unmounted. Undefined until the app has spawned it —
 * for a loaded flow, before the browser paints — or while `enabled` is false.
 *
 * It never suspends: suspending an already shown page would hide it and run
 * its layout-effect cleanups, closing the flows it holds.
 */
export const useFlow = <K extends FlowName>(flow: K, options: FlowOptions<K>): FlowRef<K> | undefined => {
  const { loadFlow } = usePorts()
  const app = AppActor.useActorRef()
  const enabled = options.enabled ?? true
  const id = options.id ?? flow
  const input = useRef(options.input)
  input.current = options.input
  useLayoutEffect(() => {
    if (!enabled) return
    let mounted = true
    let opened = false
    loadFlow(flow).then(
      () => {
        if (!mounted) return
        // The union of every flow's open event cannot be narrowed by the generic `flow`; the pair is typed by FlowOptions.
        app.send({ type: "flow.open", id, flow, input: input.current } as FlowOpen)
        opened = true
      },
      (error: unknown) => console.error(`[flows] ${flow} could not be loaded`, error)
    )
    return () => {
      mounted = false
      if (opened) app.send({ type: "flow.close", id })
    }
  }, [app, loadFlow, id, flow, enabled])
  // The child is found by its system id (the system is untyped; the flow's name gives the type).
  return AppActor.useSelector((): FlowRef<K> | undefined => (enabled ? app.system.get(id) : undefined))
}

/**
 * A flow another view holds open (the app shell's install and notifications, for the profile menu): undefined
 * until it is spawned, or while no view holds it. It does not open the flow.
 */
export const useOpenedFlow = <K extends FlowName>(id: K): FlowRef<K> | undefined => {
  const app = AppActor.useActorRef()
  return AppActor.useSelector((): FlowRef<K> | undefined => app.system.get(id))
}
