import { Layer } from "effect"
import { Bonus } from "../bonus/Bonus.ts"
import { AdminHandlers } from "./admin-http.ts"
import { BonusHandlers } from "../bonus/http.ts"
import { PaymentsHandlers } from "./http.ts"
import { ReferralHandlers } from "../referral/http.ts"
import { StatementsHandlers } from "../statements/http.ts"
import { WalletHandlers } from "./wallet-http.ts"
import { Referral } from "../referral/Referral.ts"
import { Statements } from "../statements/Statements.ts"
import { Uploads } from "../uploads/Uploads.ts"
import { Payments } from "./Payments.ts"
import { Wallet } from "./Wallet.ts"

/** Wallet and payments services, on top of the ledger, realtime, users and the database. */
export const PaymentServicesLive = Payments.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(Bonus.layer, Referral.layer, Uploads.layer)),
  Layer.provideMerge(Layer.mergeAll(Wallet.layer, Statements.layer))
)

/** Their HTTP handlers (the groups of src/schema/{payments,wallet,statements,bonus,referral,admin}.ts). */
export const PaymentHandlersLive = Layer.mergeAll(
  PaymentsHandlers,
  WalletHandlers,
  StatementsHandlers,
  BonusHandlers,
  ReferralHandlers,
  AdminHandlers
)
