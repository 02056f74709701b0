import { Layer } from "effect"
import { DeskCoreLive } from "../desk/layer.ts"
import type { Bonus } from "../bonus/Bonus.ts"
import { Sessions } from "../identity/Sessions.ts"
import { Users } from "../identity/Users.ts"
import { Idempotency } from "../ledger/Idempotency.ts"
import { Signals } from "../integrity/Signals.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { PaymentServicesLive } from "../payments/layer.ts"
import type { Payments } from "../payments/Payments.ts"
import type { Wallet } from "../payments/Wallet.ts"
import type { Activity } from "../protection/Activity.ts"
import type { Compliance } from "../protection/Compliance.ts"
import { ProtectionServicesLive } from "../protection/layer.ts"
import { PushServiceLive } from "../push/layer.ts"
import type { Admission } from "../protection/Admission.ts"
import type { Protection } from "../protection/Protection.ts"
import { Realtime, SocketAuthenticator } from "../realtime/Realtime.ts"
import type { Referral } from "../referral/Referral.ts"
import type { Statements } from "../statements/Statements.ts"
import type { Uploads } from "../uploads/Uploads.ts"

export type PaymentServices = Payments | Bonus | Referral | Uploads | Wallet | Statements

export type ProtectionServices = Protection | Admission | Compliance | Activity

/**
 * The services the CLI runs on: the ledger and payments on the database, with
 * no HTTP server. Realtime has no sockets of its own; on PostgreSQL its user
 * events go out through socket.io's PostgreSQL adapter, so the servers tell
 * the players at once.
 */
export const AdminServicesLive = DeskCoreLive.pipe(
  Layer.provideMerge(PaymentServicesLive),
  Layer.provideMerge(Layer.mergeAll(Users.layer, Idempotency.layer)),
  Layer.provideMerge(ProtectionServicesLive),
  Layer.provideMerge(Sessions.layer),
  Layer.provideMerge(Layer.mergeAll(Ledger.layer, Signals.layer)),
  // A deposit approved here is pushed to the player's phone like one approved on the site.
  Layer.provideMerge(PushServiceLive),
  Layer.provideMerge(Realtime.layer),
  Layer.provideMerge(SocketAuthenticator.visitors)
)
