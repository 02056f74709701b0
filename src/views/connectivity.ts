import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { connectivityMachine } from "../machines/connectivity.machine.ts"
import { AppActor } from "./app-actor.ts"

/** The browser has no network (the app's `connectivity` child): nothing may be shown or sent as live. */
export const useOffline = () => {
  const connectivity: ActorRefFrom<typeof connectivityMachine> | undefined = AppActor.useActorRef().system.get("connectivity")
  if (!connectivity) throw new Error("app: no 'connectivity' actor in the system")
  return useSelector(connectivity, (s) => s.hasTag("offline"))
}
