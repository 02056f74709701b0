import { Layer } from "effect"
import { Bonus } from "../bonus/Bonus.ts"
import { AdminHandlers } from "../http/admin.ts"
import { BonusHandlers } from "../http/bonus.ts"
import { PaymentsHandlers } from "../http/payments.ts"
import { ReferralHandlers } from "../http/referral.ts"
import { StatementsHandlers } from "../http/statements.ts"
import { WalletHandlers } from "../http/wallet.ts"
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
