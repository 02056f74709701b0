import { Layer } from "effect"
import { Activity } from "./Activity.ts"
import { Admission } from "./Admission.ts"
import { Compliance } from "./Compliance.ts"
import { ProtectionAdminHandlers, ProtectionHandlers } from "./http.ts"
import { Protection } from "./Protection.ts"

/**
 * Player protection and the operator's compliance switches, on the database,
 * the sessions (self-exclusion ends them) and the server's clock. Payments,
 * betting, settlement, bonuses and the casino call into `Admission` where
 * money moves.
 */
export const ProtectionServicesLive = Layer.mergeAll(Protection.layer, Admission.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(Activity.layer, Compliance.layer))
)

/** The HTTP groups of src/schema/protection.ts. */
export const ProtectionHandlersLive = Layer.mergeAll(ProtectionHandlers, ProtectionAdminHandlers)
