import { createActorContext } from "@xstate/react"
import { deskMachine } from "../machines/desk.machine.ts"

/** The desk's root actor; the composition root (src/desk/main.tsx) renders the Provider with its world provided. */
export const DeskActor = createActorContext(deskMachine)
