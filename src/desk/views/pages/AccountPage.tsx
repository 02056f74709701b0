import { useSelector } from "@xstate/react"
import { ROLE_NAMES } from "../../../domain/staff.ts"
import type { DeskSession } from "../../../schema/desk/staff.ts"
import { DeskActor } from "../desk-actor.ts"
import { useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { when } from "../widgets/format.ts"

/** The staff member's own account: who they are, what they may do, and their desk sessions (any of which they can end). */
export const AccountPage = () => {
  const staff = DeskActor.useSelector((s) => s.context.staff)
  const sessions = useDeskFlow("sessions", { input: { id: "mine" } })
  const list = useSelector(sessions, (s) => s?.context.record) ?? []
  const refusal = useSelector(sessions, (s) => s?.context.refusal)
  const end = (id: string) => {
    sessions?.send({ type: "field.change", field: "session", value: id })
    sessions?.send({ type: "command.run", command: "end" })
  }
  const COLUMNS = columns<DeskSession>([
    { id: "from", header: "Signed in", cell: ({ row }) => when(row.original.createdAt) },
    { id: "seen", header: "Last seen", cell: ({ row }) => when(row.original.lastSeenAt) },
    { id: "ends", header: "Ends by", cell: ({ row }) => when(row.original.expiresAt) },
    { id: "where", header: "From", cell: ({ row }) => <span className="mono">{row.original.ip ?? "?"}</span> },
    { id: "agent", header: "Browser", cell: ({ row }) => <span className="muted">{(row.original.userAgent ?? "").slice(0, 60)}</span> },
    {
      id: "end",
      header: "",
      cell: ({ row }) => row.original.current ? <span className="badge badge-info">this one</span> : <button type="button" className="btn btn-small" onClick={() => end(row.original.id)}>End</button>
    }
  ])
  if (!staff) return null
  return (
    <>
      <h1>My account</h1>
      <section className="card stack">
        <div>{staff.name} <span className="muted">@{staff.username} · {ROLE_NAMES[staff.role]}</span></div>
        <div>Two-step sign-in: {staff.secondFactor ? <span className="badge badge-ok">on</span> : <span className="badge badge-pending">off</span>}</div>
        <div className="muted">You may: {staff.permissions.join(", ")}</div>
      </section>
      <section className="stack">
        <h2>My desk sessions</h2>
        <p className="muted">A session ends 12 hours after sign-in, or after 30 minutes without activity.</p>
        <DataTable caption="My desk sessions" rows={list} columns={COLUMNS} rowId={(row) => row.id} />
        {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      </section>
    </>
  )
}
