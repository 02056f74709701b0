import type { FlowAdapter } from "../adapter.ts"
import { app, appCatalogue, appFlows, appSignedIn } from "./app.ts"
import { betSlip } from "./betSlip.ts"
import { bonus } from "./bonus.ts"
import { casinoBets } from "./casinoBets.ts"
import { deposit } from "./deposit.ts"
import { depositForm } from "./depositForm.ts"
import { authModal, authModalChangePassword } from "./authModal.ts"
import { livePanel } from "./livePanel.ts"
import { otpCountdown } from "./otpCountdown.ts"
import { payoutAccounts } from "./payoutAccounts.ts"
import { racing } from "./racing.ts"
import { referral } from "./referral.ts"
import { results } from "./results.ts"
import { session } from "./session.ts"
import { statement } from "./statement.ts"
import { wallet } from "./wallet.ts"
import { withdrawal } from "./withdrawal.ts"

/** Every machine's adapter to the real UI: `npm run flows` writes a spec for each (scripts/flowSpecs.ts). */
export const ADAPTERS: ReadonlyArray<FlowAdapter> = [app, appSignedIn, appCatalogue, appFlows, session, authModal, authModalChangePassword, otpCountdown,
  wallet, livePanel, betSlip, deposit, depositForm, withdrawal, payoutAccounts, bonus, results, statement, racing, casinoBets, referral]
