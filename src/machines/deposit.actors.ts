import { Effect } from "effect"
import { PaymentsApi } from "../schema/payments.ts"
import type { DepositRequest } from "../schema/payments.ts"
import { Api } from "../services/api.ts"
import { Notices } from "../services/notices.ts"
import { run } from "../services/runtime.ts"
import type { DepositSubmission } from "./deposit.machine.ts"

const payments = PaymentsApi

/** The real programs behind the deposit machine. */
export const depositPrograms = {
  /**
   * POST /admin-deposit-request with an Idempotency-Key made once per
   * submission, so a retried request never files the deposit twice. The
   * server's message shows as a toast either way (SPEC section 7).
   */
  submit: ({ input, signal }: { input: DepositSubmission; signal: AbortSignal }): Promise<DepositRequest> =>
    run(
      Effect.map(
        Api.use((api) =>
          api.call(payments.endpoints.createDeposit, {
            payload: {
              amount: Number(input.amount),
              accountId: input.accountId,
              type: input.type,
              ...(input.txnRef.trim() ? { txnRef: input.txnRef.trim() } : {}),
              // The UPI modal sends `baseImage`, the bank modal `screenshot` (SPEC section 3).
              ...(input.screenshot ? (input.type === "upi" ? { baseImage: input.screenshot } : { screenshot: input.screenshot }) : {})
            }
          }, { notify: "write", idempotencyKey: input.key })
        ),
        (envelope) => envelope.data
      ),
      signal
    ),
  warn: (message: string) => void run(Notices.use((notices) => notices.warning(message)))
}
