import { LIMIT_KINDS, LIMIT_PERIODS, PERIOD_LABEL } from "../../../../domain/protection.ts"
import { REGIONS, regionName } from "../../../../domain/regions.ts"
import { rupees } from "../../widgets/format.ts"
import { Refusal, useSection } from "./useSection.tsx"

/** What `npm run admin -- protection-settings` and its commands set: states not served, real-money deposits, the limits new players start with. */
export const ProtectionSection = () => {
  const { record, fields, busy, refusal, set, change, run, submit } = useSection("protection")
  if (!record) return <p className="muted" aria-busy="true">{refusal ? refusal.message : "Loading…"}</p>
  const unblock = (code: string) => {
    set("region", code)
    run("unblock")
  }
  return (
    <div className="card stack">
      <div className="row">
        <span>Real-money deposits: <span className={`badge ${record.depositsOpen ? "badge-ok" : "badge-pending"}`}>{record.depositsOpen ? "open" : "closed (demo credit)"}</span></span>
        <button type="button" className="btn" disabled={busy} onClick={() => (set("depositsOpen", record.depositsOpen ? "closed" : "open"), run("deposits"))}>
          {record.depositsOpen ? "Close real-money deposits" : "Open real-money deposits"}
        </button>
      </div>
      <div className="stack">
        <div>States not served: {record.blockedRegions.length === 0 && <span className="muted">none</span>}</div>
        <ul className="row" aria-label="States not served" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {record.blockedRegions.map((code) => (
            <li key={code} className="badge badge-bad">
              {regionName(code)} <button type="button" className="btn btn-small" disabled={busy} aria-label={`Serve ${regionName(code)} again`} onClick={() => unblock(code)}>✕</button>
            </li>
          ))}
        </ul>
        <form className="row" aria-label="Block a state" onSubmit={submit("block")}>
          <label className="field"><span>State</span>
            <select className="input" value={fields.region ?? ""} onChange={change("region")}>
              <option value="">Choose…</option>
              {REGIONS.filter((region) => !record.blockedRegions.includes(region.code)).map((region) => <option key={region.code} value={region.code}>{region.name}</option>)}
            </select>
          </label>
          <button type="submit" className="btn btn-bad" disabled={busy}>Stop serving it</button>
        </form>
      </div>
      <div className="stack">
        <div>Limits new players start with: {record.defaultLimits.length === 0 ? <span className="muted">none</span> : record.defaultLimits.map((limit) => `${limit.kind} ${PERIOD_LABEL[limit.period]} ${rupees(limit.amount)}`).join(", ")}</div>
        <form className="row" aria-label="Set a default limit" onSubmit={submit("limit")}>
          <label className="field"><span>Kind</span>
            <select className="input" value={fields.kind ?? ""} onChange={change("kind")}>
              <option value="">Choose…</option>
              {LIMIT_KINDS.map((kind) => <option key={kind} value={kind}>{kind}</option>)}
            </select>
          </label>
          <label className="field"><span>Period</span>
            <select className="input" value={fields.period ?? ""} onChange={change("period")}>
              <option value="">Choose…</option>
              {LIMIT_PERIODS.map((period) => <option key={period} value={period}>{PERIOD_LABEL[period]}</option>)}
            </select>
          </label>
          <label className="field"><span>Amount (₹, empty removes it)</span><input className="input" inputMode="decimal" value={fields.amount ?? ""} onChange={change("amount")} /></label>
          <button type="submit" className="btn" disabled={busy}>Set default limit</button>
        </form>
      </div>
      <Refusal refusal={refusal} />
    </div>
  )
}
