import type { DeskBanner } from "../../../../schema/desk/settings.ts"
import { columns, DataTable } from "../../widgets/DataTable.tsx"
import { readImage, Refusal, useSection } from "./useSection.tsx"

/** The home page's banners, in the order players see them: upload, move up or down, remove. */
export const BannersSection = () => {
  const { record, fields, busy, refusal, set, change, run, submit } = useSection("banners")
  const on = (banner: DeskBanner, command: string) => {
    set("banner", banner.id)
    run(command)
  }
  const last = (record?.length ?? 0) - 1
  const COLUMNS = columns<DeskBanner>([
    { id: "image", header: "Slide", cell: ({ row }) => <img src={row.original.image} alt="" width={180} height={60} style={{ objectFit: "cover" }} /> },
    { id: "title", header: "Title", cell: ({ row }) => <span>{row.original.title} {row.original.marketing && <span className="badge badge-info">offer</span>}</span> },
    {
      id: "actions",
      header: "",
      cell: ({ row }) => (
        <div className="row">
          <button type="button" className="btn btn-small" disabled={busy || row.index === 0} aria-label={`Move ${row.original.title} up`} onClick={() => on(row.original, "up")}>↑</button>
          <button type="button" className="btn btn-small" disabled={busy || row.index === last} aria-label={`Move ${row.original.title} down`} onClick={() => on(row.original, "down")}>↓</button>
          <button type="button" className="btn btn-small btn-bad" disabled={busy} aria-label={`Remove ${row.original.title}`} onClick={() => on(row.original, "remove")}>Remove</button>
        </div>
      )
    }
  ])
  return (
    <div className="stack">
      <DataTable caption="Banners" rows={record ?? []} columns={COLUMNS} rowId={(row) => row.id} empty={record ? "No banners." : "Loading…"} />
      <form className="card row" aria-label="Upload a banner" onSubmit={submit("add")}>
        <label className="field"><span>Banner title</span><input className="input" maxLength={80} value={fields.title ?? ""} onChange={change("title")} /></label>
        <label className="field"><span>Banner image (1200×400)</span>
          <input className="input" type="file" accept="image/png,image/jpeg,image/webp" onChange={(event) => { const file = event.target.files?.[0]; if (file) void readImage(file).then((url) => set("image", url)) }} />
        </label>
        <label className="field"><span>An offer or promotion</span>
          <select className="input" value={fields.marketing === "no" ? "no" : "yes"} onChange={change("marketing")}>
            <option value="yes">Yes (hidden from players on a break)</option>
            <option value="no">No</option>
          </select>
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy}>Upload banner</button>
      </form>
      <Refusal refusal={refusal} />
    </div>
  )
}
