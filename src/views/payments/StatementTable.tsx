import { formatRupees } from "../../domain/money.ts"
import type { Statement } from "../../schema/statements.ts"
import { Signed, Table, when } from "./ui.tsx"

/** Kinds the site knows by a friendlier name; any other kind shows as posted. */
const KIND_LABELS: Record<string, string> = {
  deposit: "Deposit",
  withdrawal_hold: "Withdrawal requested",
  withdrawal_paid: "Withdrawal paid",
  withdrawal_rejected: "Withdrawal returned",
  adjustment: "Credit",
  bonus_activate: "Bonus",
  bonus_claim: "Bonus claimed",
  bonus_forfeit: "Bonus forfeited",
  referral_reward: "Referral reward",
  referral_claim: "Referral bonus claimed"
}

export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase())

/** Statement rows with credit, debit and running balance, and the totals underneath. */
export const StatementTable = ({ statement, caption }: { statement: Statement | undefined; caption: string }) => (
  <>
    <Table
      caption={caption}
      testId="statement"
      head={["Date", "Description", "Credit", "Debit", "Balance"]}
      rows={(statement?.rows ?? []).map((row) => [
        when(row.createdAt),
        <span className="flex flex-col"><span className="font-600">{kindLabel(row.kind)}</span><span className="text-xs text-muted">{row.description}</span></span>,
        row.credit ? <span className="text-ok">{formatRupees(row.credit)}</span> : "",
        row.debit ? <span className="text-bad">{formatRupees(row.debit)}</span> : "",
        formatRupees(row.balance)
      ])}
      foot={statement ? ["Total", `${statement.rows.length} transactions`, formatRupees(statement.totals.credit), formatRupees(statement.totals.debit), <Signed amount={statement.totals.net} />] : undefined}
    />
    {statement ? (
      <p className="m-0 text-xs text-muted" data-testid="statement-summary">
        Opening balance {formatRupees(statement.openingBalance)} · closing balance {formatRupees(statement.closingBalance)}
      </p>
    ) : null}
  </>
)
