import { useState } from "react"
import { isCreditPlayer } from "../../domain/account.ts"
import { calls } from "../payments/calls.ts"
import { useResource } from "../payments/hooks.ts"
import { StatementTable } from "../payments/StatementTable.tsx"
import { DateRangePicker, defaultRange, PlayerPage } from "../payments/ui.tsx"

const TABS = [
  { view: "account", label: "Account statement" },
  { view: "payments", label: "Deposits & withdrawals" }
] as const

const StatementsBody = ({ bonusWallets }: { bonusWallets: boolean }) => {
  const [view, setView] = useState<"account" | "payments">("account")
  const [range, setRange] = useState(defaultRange())
  const [checked, setChecked] = useState(false)
  const statement = useResource(({ view, ...query }: { view: "account" | "payments"; start_date: string; end_date: string; isChecked: "true" | "false" }) => calls.statement(view, query), {
    view,
    ...range,
    isChecked: checked ? "true" as const : "false" as const
  })
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div role="tablist" aria-label="Statement" className="flex rounded-full border border-line bg-bg p-0.5">
          {TABS.map((tab) => (
            <button
              key={tab.view}
              type="button"
              role="tab"
              aria-selected={view === tab.view}
              onClick={() => setView(tab.view)}
              className={`rounded-full px-3 py-1.5 text-xs font-700 ${view === tab.view ? "bg-brand text-brand-fg" : "text-muted hover:text-fg"}`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <DateRangePicker value={range} onChange={setRange}>
          {bonusWallets ? (
            <label className="flex items-center gap-2 pb-2 text-xs text-muted">
              <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> Include bonus wallets
            </label>
          ) : null}
        </DateRangePicker>
      </div>
      <StatementTable statement={statement.data} caption={view === "account" ? "Account statement" : "Deposits and withdrawals"} />
    </>
  )
}

const Statements = () => (
  <PlayerPage section="statements" title="Account Statements" creditPlayers>
    {(user) => <StatementsBody bonusWallets={!isCreditPlayer(user)} />}
  </PlayerPage>
)

export default Statements
