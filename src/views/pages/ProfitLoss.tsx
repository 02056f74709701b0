import { useSelector } from "@xstate/react"
import { isCreditPlayer } from "../../domain/account.ts"
import { lastIndiaDays } from "../../domain/ranges.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { profitRows } from "../../machines/statement.machine.ts"
import { useFlow } from "../flows.ts"
import { IncludeBonus } from "../payments/IncludeBonus.tsx"
import { StatementWords } from "../payments/StatementTable.tsx"
import { DateRangePicker, PlayerPage, Signed, Table, when } from "../payments/ui.tsx"

const ProfitLossView = ({ flow, bonusWallets }: { flow: FlowRef<"statement">; bonusWallets: boolean }) => {
  const range = useSelector(flow, (s) => s.context.range)
  const result = useSelector(flow, (s) => s.context.statement)
  const rows = useSelector(flow, profitRows)
  return (
    <>
      <DateRangePicker value={range} onChange={(next) => flow.send({ type: "range.change", range: next })}>
        {bonusWallets ? <IncludeBonus flow={flow} label="Include bonus wallet" /> : null}
      </DateRangePicker>
      <div className="card flex items-center justify-between p-4">
        <span className="text-muted">Profit and loss for the period</span>
        <strong className="text-xl" data-testid="pl-total"><Signed amount={result?.totals.net ?? 0} /></strong>
      </div>
      <Table
        caption="Profit and loss"
        testId="profit-loss"
        head={["Date", "Game", "P/L", "Running P/L"]}
        rows={rows.map(({ row, running }) => [
          when(row.createdAt),
          <StatementWords row={row} />,
          <Signed amount={row.amount} />,
          <Signed amount={running} />
        ])}
        foot={result ? ["Total", `${rows.length} results`, <Signed amount={result.totals.net} />, ""] : undefined}
      />
    </>
  )
}

const ProfitLossBody = ({ bonusWallets }: { bonusWallets: boolean }) => {
  const flow = useFlow("statement", { id: "profitLoss", input: { view: "results", range: lastIndiaDays(7) } })
  return flow ? <ProfitLossView flow={flow} bonusWallets={bonusWallets} /> : null
}

const ProfitLoss = () => (
  <PlayerPage section="profitLoss" title="Profit and Loss" creditPlayers>
    {(user) => <ProfitLossBody bonusWallets={!isCreditPlayer(user)} />}
  </PlayerPage>
)

export default ProfitLoss
