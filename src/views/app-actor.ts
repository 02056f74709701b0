import { createActorContext } from "@xstate/react"
import { appMachine } from "../machines/app.machine.ts"

/**
 * The app actor, root of the one actor system. Views read it and send it
 * events; the composition root (src/root/main.tsx) renders the Provider with
 * the machine's world provided (`logic`).
 */
export const AppActor = createActorContext(appMachine)
