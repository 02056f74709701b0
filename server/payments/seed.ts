import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Seeder } from "../seed/demo.ts"
import { upiQrDataUrl } from "./qr.ts"

/** The demo operator's deposit accounts: two UPI ids (with generated QR codes) and a bank account. */
export const DEMO_DEPOSIT_ACCOUNTS = [
  { type: "upi", accountNumber: "khel.deposits@okaxis", accountHolderName: "Khel Gaming Pvt Ltd" },
  { type: "upi", accountNumber: "khelpay@ybl", accountHolderName: "Khel Gaming Pvt Ltd" },
  { type: "bank", accountNumber: "50200012345678", accountHolderName: "Khel Gaming Pvt Ltd", bankName: "HDFC Bank", ifscCode: "HDFC0001234", accountType: "current" }
] as const

export const depositAccounts: Seeder = {
  name: "deposit-accounts",
  run: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const account of DEMO_DEPOSIT_ACCOUNTS) {
        const image = account.type === "upi" ? yield* Effect.promise(() => upiQrDataUrl(account.accountNumber, account.accountHolderName)) : null
        yield* sql`
          INSERT INTO deposit_accounts (type, account_number, account_holder_name, bank_name, ifsc_code, account_type, image)
          VALUES (${account.type}, ${account.accountNumber}, ${account.accountHolderName}, ${"bankName" in account ? account.bankName : null},
                  ${"ifscCode" in account ? account.ifscCode : null}, ${"accountType" in account ? account.accountType : null}, ${image})
          ON CONFLICT (type, account_number) DO NOTHING
        `
      }
    })
}
