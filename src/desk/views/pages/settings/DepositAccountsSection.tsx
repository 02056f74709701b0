import type { AdminDepositAccount } from "../../../../schema/admin.ts"
import { columns, DataTable } from "../../widgets/DataTable.tsx"
import { readImage, Refusal, useSection } from "./useSection.tsx"

/** The operator's deposit accounts players pay into: list, add (a UPI account without a QR gets one made), turn off or on. */
export const DepositAccountsSection = () => {
  const { record, fields, busy, refusal, set, change, run, submit } = useSection("depositAccounts")
  const toggle = (account: AdminDepositAccount) => {
    set("account", account._id)
    run(account.active ? "off" : "on")
  }
  const COLUMNS = columns<AdminDepositAccount>([
    { id: "kind", header: "Kind", cell: ({ row }) => (row.original.type === "upi" ? "UPI" : `${row.original.bankName ?? "Bank"} (${row.original.ifscCode ?? ""})`) },
    { id: "number", header: "Account", cell: ({ row }) => <span className="mono">{row.original.accountNumber}</span> },
    { id: "holder", header: "Holder", cell: ({ row }) => row.original.accountHolderName },
    { id: "qr", header: "QR", cell: ({ row }) => (row.original.image ? <img src={row.original.image} alt={`QR of ${row.original.accountNumber}`} width={48} height={48} /> : "") },
    { id: "state", header: "Shown to players", cell: ({ row }) => <span className={`badge ${row.original.active ? "badge-ok" : "badge-pending"}`}>{row.original.active ? "on" : "off"}</span> },
    {
      id: "toggle",
      header: "",
      cell: ({ row }) => (
        <button type="button" className="btn btn-small" disabled={busy} aria-label={`Turn ${row.original.active ? "off" : "on"} ${row.original.accountNumber}`} onClick={() => toggle(row.original)}>
          {row.original.active ? "Turn off" : "Turn on"}
        </button>
      )
    }
  ])
  const bank = fields.type === "bank"
  return (
    <div className="stack">
      <DataTable caption="Deposit accounts" rows={record ?? []} columns={COLUMNS} rowId={(row) => row._id} empty={record ? "No deposit accounts." : "Loading…"} />
      <form className="card stack" aria-label="Add a deposit account" onSubmit={submit("add")}>
        <div className="row">
          <label className="field"><span>Kind</span>
            <select className="input" value={bank ? "bank" : "upi"} onChange={change("type")}>
              <option value="upi">UPI</option>
              <option value="bank">Bank account</option>
            </select>
          </label>
          <label className="field"><span>{bank ? "Account number" : "UPI id"}</span><input className="input mono" maxLength={64} value={fields.accountNumber ?? ""} onChange={change("accountNumber")} /></label>
          <label className="field"><span>Holder's name</span><input className="input" maxLength={80} value={fields.accountHolderName ?? ""} onChange={change("accountHolderName")} /></label>
        </div>
        {bank ? (
          <div className="row">
            <label className="field"><span>Bank</span><input className="input" maxLength={80} value={fields.bankName ?? ""} onChange={change("bankName")} /></label>
            <label className="field"><span>IFSC</span><input className="input mono" maxLength={11} value={fields.ifscCode ?? ""} onChange={change("ifscCode")} /></label>
            <label className="field"><span>Account type</span>
              <select className="input" value={fields.accountType === "savings" ? "savings" : "current"} onChange={change("accountType")}>
                <option value="current">Current</option>
                <option value="savings">Savings</option>
              </select>
            </label>
          </div>
        ) : (
          <label className="field"><span>QR image (optional: one is made from the UPI id)</span>
            <input className="input" type="file" accept="image/png,image/jpeg,image/webp" onChange={(event) => { const file = event.target.files?.[0]; if (file) void readImage(file).then((url) => set("image", url)) }} />
          </label>
        )}
        <Refusal refusal={refusal} />
        <div><button type="submit" className="btn btn-primary" disabled={busy}>Add deposit account</button></div>
      </form>
    </div>
  )
}
