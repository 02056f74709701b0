import { useSection, readImage, Refusal } from "./useSection.tsx"

/** Title, colour, logo and favicon as the player site reads them (its next load shows a change). */
export const SiteSection = () => {
  const { record, fields, busy, refusal, set, change, submit } = useSection("site")
  if (!record) return <p className="muted" aria-busy="true">{refusal ? refusal.message : "Loading…"}</p>
  const value = (name: "siteTitle" | "color" | "logoImg" | "faviconImg") => fields[name] ?? record[name]
  const image = (name: "logoImg" | "faviconImg") => (event: { target: { files: FileList | null } }) => {
    const file = event.target.files?.[0]
    if (file) void readImage(file).then((url) => set(name, url))
  }
  return (
    <form className="card stack" aria-label="Site settings" onSubmit={submit("save")}>
      <label className="field"><span>Site title</span><input className="input" maxLength={60} value={value("siteTitle")} onChange={change("siteTitle")} /></label>
      <div className="row">
        <label className="field"><span>Brand colour</span><input className="input" type="color" value={value("color")} onChange={change("color")} /></label>
        <label className="field"><span>Brand colour (hex)</span><input className="input mono" maxLength={7} value={value("color")} onChange={change("color")} /></label>
      </div>
      <div className="row">
        {value("logoImg") && <img src={value("logoImg")} alt="Logo" style={{ maxHeight: 48 }} />}
        <label className="field"><span>Logo image</span><input className="input" type="file" accept="image/png,image/jpeg,image/webp,image/svg+xml" onChange={image("logoImg")} /></label>
        {value("faviconImg") && <img src={value("faviconImg")} alt="Favicon" style={{ maxHeight: 32 }} />}
        <label className="field"><span>Favicon image</span><input className="input" type="file" accept="image/png,image/svg+xml,image/x-icon" onChange={image("faviconImg")} /></label>
      </div>
      <Refusal refusal={refusal} />
      <div><button type="submit" className="btn btn-primary" disabled={busy}>Save site settings</button></div>
    </form>
  )
}
