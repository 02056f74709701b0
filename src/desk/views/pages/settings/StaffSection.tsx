import { ROLE_NAMES, STAFF_ROLES } from "../../../../domain/staff.ts"
import type { StaffAccount } from "../../../../schema/desk/staff.ts"
import { columns, DataTable } from "../../widgets/DataTable.tsx"
import { when } from "../../widgets/format.ts"
import { Refusal, useSection } from "./useSection.tsx"

/** Staff accounts (DIRECTOR): create one with a role, change a role or status, reset a second factor (their sessions end). */
export const StaffSection = () => {
  const { record, fields, busy, refusal, set, change, run, submit } = useSection("staff")
  const on = (account: StaffAccount, command: string, role?: string) => {
    set("staff", account.id)
    if (role !== undefined) set("role", role)
    run(command)
  }
  const COLUMNS = columns<StaffAccount>([
    { id: "who", header: "Who", cell: ({ row }) => <span>{row.original.name} <span className="muted">@{row.original.username}</span></span> },
    {
      id: "role",
      header: "Role",
      cell: ({ row }) => (
        <select className="input" aria-label={`Role of ${row.original.username}`} value={row.original.role} disabled={busy} onChange={(event) => on(row.original, "role", event.target.value)}>
          {STAFF_ROLES.map((role) => <option key={role} value={role}>{ROLE_NAMES[role]}</option>)}
        </select>
      )
    },
    { id: "status", header: "Status", cell: ({ row }) => <span className={`badge ${row.original.status === "active" ? "badge-ok" : "badge-bad"}`}>{row.original.status}</span> },
    { id: "factor", header: "Two-step", cell: ({ row }) => (row.original.secondFactor ? "on" : "off") },
    { id: "seen", header: "Last sign-in", cell: ({ row }) => (row.original.lastSignInAt ? when(row.original.lastSignInAt) : "never") },
    {
      id: "actions",
      header: "",
      cell: ({ row }) => (
        <div className="row">
          <button type="button" className="btn btn-small" disabled={busy} aria-label={`${row.original.status === "active" ? "Suspend" : "Reactivate"} ${row.original.username}`}
            onClick={() => on(row.original, row.original.status === "active" ? "suspend" : "reactivate")}>{row.original.status === "active" ? "Suspend" : "Reactivate"}</button>
          {row.original.secondFactor && (
            <button type="button" className="btn btn-small" disabled={busy} aria-label={`Reset the second factor of ${row.original.username}`} onClick={() => on(row.original, "resetSecondFactor")}>Reset two-step</button>
          )}
        </div>
      )
    }
  ])
  return (
    <div className="stack">
      <DataTable caption="Staff accounts" rows={record ?? []} columns={COLUMNS} rowId={(row) => row.id} empty={record ? "No staff accounts." : "Loading…"} />
      <form className="card stack" aria-label="Create a staff account" onSubmit={submit("create")}>
        <div className="row">
          <label className="field"><span>Name</span><input className="input" maxLength={80} value={fields.name ?? ""} onChange={change("name")} /></label>
          <label className="field"><span>Username</span><input className="input" maxLength={32} autoComplete="off" value={fields.username ?? ""} onChange={change("username")} /></label>
          <label className="field"><span>Mobile number</span><input className="input" inputMode="tel" maxLength={20} value={fields.mobileNo ?? ""} onChange={change("mobileNo")} /></label>
          <label className="field"><span>Role</span>
            <select className="input" value={fields.role ?? ""} onChange={change("role")}>
              <option value="">Choose…</option>
              {STAFF_ROLES.map((role) => <option key={role} value={role}>{ROLE_NAMES[role]}</option>)}
            </select>
          </label>
          <label className="field"><span>First password</span><input className="input" type="password" autoComplete="new-password" maxLength={200} value={fields.password ?? ""} onChange={change("password")} /></label>
        </div>
        <Refusal refusal={refusal} />
        <div><button type="submit" className="btn btn-primary" disabled={busy}>Create staff account</button></div>
      </form>
    </div>
  )
}
