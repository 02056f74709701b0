import { useSelector } from "@xstate/react"
import { DEFAULT_PAGE } from "../../../schema/desk/common.ts"
import type { IntegritySignal, SignalKind } from "../../../schema/integrity.ts"
import { useDeskFlow } from "../flows.ts"
import { columns, DataTable, Pager } from "../widgets/DataTable.tsx"
import { when } from "../widgets/format.ts"

const KINDS: Readonly<Record<SignalKind, string>> = {
  duplicate_utr: "Reference used again",
  near_duplicate_utr: "Reference one slip away",
  shared_payout_account: "Payout account shared",
  shared_device: "Device shared",
  shared_address: "Address shared"
}

const COLUMNS = columns<IntegritySignal>([
  { id: "at", header: "When", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "kind", header: "What", cell: ({ row }) => <span className="badge badge-bad">{KINDS[row.original.kind]}</span> },
  { id: "players", header: "Players", cell: ({ row }) => row.original.players.map((player) => `${player.name} (@${player.username})`).join(", ") },
  { id: "subject", header: "Reused or shared", cell: ({ row }) => <span className="mono">{row.original.subject}</span> },
  { id: "detail", header: "Detail", cell: ({ row }) => row.original.detail }
])

/** Integrity signals, newest first: what the site noticed between players that staff should look at. */
export const SignalsPage = () => {
  const list = useDeskFlow("signals", { input: { query: {} } })
  const page = useSelector(list, (s) => s?.context.page)
  const pageNumber = useSelector(list, (s) => s?.context.cursors.length) ?? 1
  const kind = useSelector(list, (s) => s?.context.query.kind) ?? ""
  const loading = useSelector(list, (s) => s?.hasTag("loading")) ?? true
  const refusal = useSelector(list, (s) => s?.context.refusal)
  if (!list || !page) return null
  return (
    <>
      <h1>Signals</h1>
      <form className="row" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <label className="field"><span>What</span>
          <select className="input" value={kind} onChange={(event) => list.send({ type: "query.change", field: "kind", value: event.target.value })}>
            <option value="">Everything</option>
            {Object.entries(KINDS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}
          </select>
        </label>
      </form>
      <section className="stack" aria-busy={loading}>
        <DataTable caption="Integrity signals" rows={page.items} columns={COLUMNS} rowId={(row) => row._id} empty={loading ? "Loading…" : "Nothing noticed."} />
        <Pager page={pageNumber} total={page.total} size={DEFAULT_PAGE} hasNext={page.next !== null} onPrevious={() => list.send({ type: "page.previous" })} onNext={() => list.send({ type: "page.next" })} />
        {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      </section>
    </>
  )
}
