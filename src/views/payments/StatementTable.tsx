import { formatRupees } from "../../domain/money.ts"
import type { Statement, StatementRow } from "../../schema/statements.ts"
import { Signed, Table, when } from "./ui.tsx"

/** What happened, in plain words, over what it was about (src/domain/statements.ts, put together by the server). */
export const StatementWords = ({ row }: { row: Pick<StatementRow, "title" | "description"> }) => (
  <span className="flex flex-col"><span className="font-600">{row.title}</span><span className="text-xs text-muted">{row.description}</span></span>
)

/** Statement rows with credit, debit and running balance, and the totals underneath. */
export const StatementTable = ({ statement, caption }: { statement: Statement | undefined; caption: string }) => (
  <>
    <Table
      caption={caption}
      testId="statement"
      head={["Date", "Description", "Credit", "Debit", "Balance"]}
      rows={(statement?.rows ?? []).map((row) => [
        when(row.createdAt),
        <StatementWords row={row} />,
        // A row that moved nothing shown (a lost bet settled: the stake had left when it was placed) still says so.
        row.credit || !row.debit ? <span className={row.credit ? "text-ok" : "text-muted"}>{formatRupees(row.credit)}</span> : "",
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
