import { useSelector } from "@xstate/react"
import type { CasinoBet } from "../../../schema/casino.ts"
import { useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"

const COLUMNS = columns<CasinoBet>([
  { id: "at", header: "Started", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "game", header: "Game", cell: ({ row }) => <span>{row.original.title} <span className="muted">{row.original.provider_name}</span></span> },
  { id: "stake", header: "Stake", cell: ({ row }) => <span className="num">{rupees(row.original.stake)}</span> },
  { id: "win", header: "Win", cell: ({ row }) => <span className="num">{rupees(row.original.win)}</span> },
  { id: "pl", header: "Result", cell: ({ row }) => <span className="num">{rupees(row.original.profitLoss)}</span> },
  { id: "status", header: "Status", cell: ({ row }) => row.original.status }
])

/** A player's casino rounds of a day in India (today unless a day is chosen), newest first. */
export const CasinoRounds = ({ playerId }: { readonly playerId: string }) => {
  const list = useDeskFlow("rounds", { id: `rounds:${playerId}`, input: { query: { player: playerId } } })
  const items = useSelector(list, (s) => s?.context.page.items) ?? []
  const date = useSelector(list, (s) => s?.context.query.date) ?? ""
  const loading = useSelector(list, (s) => s?.hasTag("loading")) ?? true
  const refusal = useSelector(list, (s) => s?.context.refusal)
  if (!list) return null
  return (
    <section className="stack" aria-label="Casino rounds">
      <div className="spread">
        <h2>Casino rounds</h2>
        <label className="field"><span>Day</span><input className="input" type="date" value={date} onChange={(event) => list.send({ type: "query.change", field: "date", value: event.target.value })} /></label>
      </div>
      <DataTable caption="Casino rounds" rows={items} columns={COLUMNS} rowId={(row) => row._id} empty={loading ? "Loading…" : "No rounds that day."} />
      {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
    </section>
  )
}
