import { useLayoutEffect, useRef } from "react"
import type { Permission } from "../../domain/staff.ts"
import type { DeskFlowName, DeskFlowRef } from "../machines/flows.ts"
import { DeskActor } from "./desk-actor.ts"

/**
 * A flow of the desk's actor system for as long as the calling component is
 * mounted (`flow.open` on mount, `flow.close` on unmount), found by its id.
 * Undefined until the desk has spawned it (at once, before the browser paints).
 */
export const useDeskFlow = <K extends DeskFlowName>(flow: K, options: { readonly id?: string; readonly input: unknown }): DeskFlowRef<K> | undefined => {
  const desk = DeskActor.useActorRef()
  const id = options.id ?? flow
  const input = useRef(options.input)
  input.current = options.input
  useLayoutEffect(() => {
    desk.send({ type: "flow.open", id, flow, input: input.current })
    return () => desk.send({ type: "flow.close", id })
  }, [desk, id, flow])
  return DeskActor.useSelector((): DeskFlowRef<K> | undefined => desk.system.get(id))
}

/** Whether the signed-in staff member's role may do what a permission allows (the server decides; this hides what it would refuse). */
export const useCan = () => {
  const permissions = DeskActor.useSelector((snapshot) => snapshot.context.staff?.permissions)
  return (permission: Permission) => permissions?.includes(permission) ?? false
}
