import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"
import { useSession } from "../session.ts"

export type ProtectionRef = FlowRef<"protection">

const noInput = {}

/**
 * The signed-in player's protection flow: one actor for every view that asks
 * (the layout holds it for the reality check; the protection and deposit
 * pages show it). Undefined for a visitor.
 */
export const useProtection = (): ProtectionRef | undefined => {
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  return useFlow("protection", { input: noInput, enabled: signedIn })
}
