import { useSelector } from "@xstate/react"
import { isCreditPlayer } from "../../domain/account.ts"
import { lastIndiaDays } from "../../domain/ranges.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"
import { IncludeBonus } from "../payments/IncludeBonus.tsx"
import { StatementTable } from "../payments/StatementTable.tsx"
import { DateRangePicker, PlayerPage } from "../payments/ui.tsx"

const TABS = [
  { view: "account", label: "Account statement" },
  { view: "payments", label: "Deposits & withdrawals" }
] as const

const StatementsView = ({ flow, bonusWallets }: { flow: FlowRef<"statement">; bonusWallets: boolean }) => {
  const view = useSelector(flow, (s) => s.context.view)
  const range = useSelector(flow, (s) => s.context.range)
  const statement = useSelector(flow, (s) => s.context.statement)
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
              onClick={() => flow.send({ type: "view.change", view: tab.view })}
              className={`rounded-full px-3 py-1.5 text-xs font-700 ${view === tab.view ? "bg-brand text-brand-fg" : "text-muted hover:text-fg"}`}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <DateRangePicker value={range} onChange={(next) => flow.send({ type: "range.change", range: next })}>
          {bonusWallets ? <IncludeBonus flow={flow} label="Include bonus wallets" /> : null}
        </DateRangePicker>
      </div>
      <StatementTable statement={statement} caption={view === "account" ? "Account statement" : "Deposits and withdrawals"} />
    </>
  )
}

const StatementsBody = ({ bonusWallets }: { bonusWallets: boolean }) => {
  const flow = useFlow("statement", { id: "statements", input: { view: "account", range: lastIndiaDays(7) } })
  return flow ? <StatementsView flow={flow} bonusWallets={bonusWallets} /> : null
}

const Statements = () => (
  <PlayerPage section="statements" title="Account Statements" creditPlayers>
    {(user) => <StatementsBody bonusWallets={!isCreditPlayer(user)} />}
  </PlayerPage>
)

export default Statements
