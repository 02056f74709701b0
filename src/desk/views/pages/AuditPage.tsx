import { useSelector } from "@xstate/react"
import { isStaffRole, ROLE_NAMES } from "../../../domain/staff.ts"
import type { AuditEntry } from "../../../schema/desk/audit.ts"
import { DEFAULT_PAGE } from "../../../schema/desk/common.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable, Pager } from "../widgets/DataTable.tsx"
import { when } from "../widgets/format.ts"

const json = (value: unknown) => (value === null || value === undefined ? "–" : JSON.stringify(value))

/** The record before and after, folded (a line of each when opened). */
const Change = ({ entry }: { readonly entry: AuditEntry }) =>
  entry.before === null && entry.after === null ? <span className="muted">–</span> : (
    <details>
      <summary className="muted">before / after</summary>
      <div className="mono" style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 520 }}>
        <div>before: {json(entry.before)}</div>
        <div>after: {json(entry.after)}</div>
      </div>
    </details>
  )

const COLUMNS = columns<AuditEntry>([
  { id: "at", header: "When", cell: ({ row }) => <span className="nowrap">{when(row.original.at)}</span> },
  {
    id: "who",
    header: "Who",
    cell: ({ row }) => {
      const role = row.original.actorRole
      return <span>{row.original.actor} {role !== null && <span className="muted">({isStaffRole(role) ? ROLE_NAMES[role] : role})</span>}</span>
    }
  },
  { id: "ip", header: "From", cell: ({ row }) => <span className="mono">{row.original.ip ?? ""}</span> },
  { id: "what", header: "What", cell: ({ row }) => <span className="mono">{row.original.action}</span> },
  { id: "record", header: "Record", cell: ({ row }) => <span className="mono">{row.original.subjectKind ? `${row.original.subjectKind} ${row.original.subjectId ?? ""}` : ""}</span> },
  { id: "change", header: "Change", cell: ({ row }) => <Change entry={row.original} /> }
])

const FILTERS = [
  ["q", "Any text", "search"],
  ["actor", "Who (username)", "text"],
  ["action", "What (e.g. player.credit)", "text"],
  ["subject", "Record id", "text"],
  ["start_date", "From", "date"],
  ["end_date", "To", "date"]
] as const

/** Every staff action, newest first, searchable and paged on the server; the DIRECTOR exports the matches as CSV. */
export const AuditPage = () => {
  const list = useDeskFlow("audit", { input: { query: {} } })
  const query = useSelector(list, (s) => s?.context.query) ?? {}
  const page = useSelector(list, (s) => s?.context.page)
  const pageNumber = useSelector(list, (s) => s?.context.cursors.length) ?? 1
  const loading = useSelector(list, (s) => s?.hasTag("loading")) ?? true
  const exporting = useSelector(list, (s) => s?.hasTag("busy")) ?? false
  const refusal = useSelector(list, (s) => s?.context.refusal)
  const can = useCan()
  if (!list || !page) return null
  return (
    <>
      <div className="spread">
        <h1>Audit</h1>
        {can("audit.export") && (
          <button type="button" className="btn" disabled={exporting || loading} onClick={() => list.send({ type: "list.export" })}>{exporting ? "Exporting…" : "Export CSV"}</button>
        )}
      </div>
      <p className="muted">Append-only: the database refuses to change or delete a line.</p>
      <form className="row" role="search" aria-label="Search the audit" onSubmit={(event) => event.preventDefault()}>
        {FILTERS.map(([field, label, type]) => (
          <label key={field} className="field"><span>{label}</span>
            <input className="input" type={type} value={query[field] ?? ""} onChange={(event) => list.send({ type: "query.change", field, value: event.target.value })} />
          </label>
        ))}
      </form>
      <section className="stack" aria-busy={loading}>
        <DataTable caption="Staff actions" rows={page.items} columns={COLUMNS} rowId={(row) => row.id} empty={loading ? "Loading…" : "No actions match."} />
        <Pager page={pageNumber} total={page.total} size={DEFAULT_PAGE} hasNext={page.next !== null} onPrevious={() => list.send({ type: "page.previous" })} onNext={() => list.send({ type: "page.next" })} />
        {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      </section>
    </>
  )
}
