import { useState } from "react"
import { isCreditPlayer } from "../../domain/account.ts"
import { calls } from "../payments/calls.ts"
import { useResource } from "../payments/hooks.ts"
import { kindLabel } from "../payments/StatementTable.tsx"
import { DateRangePicker, defaultRange, PlayerPage, Signed, Table, when } from "../payments/ui.tsx"

const ProfitLossBody = ({ bonusWallets }: { bonusWallets: boolean }) => {
  const [range, setRange] = useState(defaultRange())
  const [checked, setChecked] = useState(false)
  const result = useResource((query: { start_date: string; end_date: string; isChecked: "true" | "false" }) => calls.statement("results", query), {
    ...range,
    isChecked: checked ? "true" as const : "false" as const
  })
  const rows = result.data?.rows ?? []
  // Newest first; the running P/L adds up from the oldest.
  let running = result.data?.totals.net ?? 0
  const withRunning = rows.map((row) => {
    const at = running
    running = Math.round((running - row.amount) * 100) / 100
    return { row, at }
  })
  return (
    <>
      <DateRangePicker value={range} onChange={setRange}>
        {bonusWallets ? (
          <label className="flex items-center gap-2 pb-2 text-xs text-muted">
            <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> Include bonus wallet
          </label>
        ) : null}
      </DateRangePicker>
      <div className="card flex items-center justify-between p-4">
        <span className="text-muted">Profit and loss for the period</span>
        <strong className="text-xl" data-testid="pl-total"><Signed amount={result.data?.totals.net ?? 0} /></strong>
      </div>
      <Table
        caption="Profit and loss"
        testId="profit-loss"
        head={["Date", "Game", "P/L", "Running P/L"]}
        rows={withRunning.map(({ row, at }) => [
          when(row.createdAt),
          <span className="flex flex-col"><span className="font-600">{kindLabel(row.kind)}</span><span className="text-xs text-muted">{row.description}</span></span>,
          <Signed amount={row.amount} />,
          <Signed amount={at} />
        ])}
        foot={result.data ? ["Total", `${rows.length} results`, <Signed amount={result.data.totals.net} />, ""] : undefined}
      />
    </>
  )
}

const ProfitLoss = () => (
  <PlayerPage section="profitLoss" title="Profit and Loss" creditPlayers>
    {(user) => <ProfitLossBody bonusWallets={!isCreditPlayer(user)} />}
  </PlayerPage>
)

export default ProfitLoss
