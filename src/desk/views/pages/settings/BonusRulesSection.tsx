import { Refusal, useSection } from "./useSection.tsx"

type Prefix = "welcome" | "referral"

/** The welcome offer and the referral reward: a change applies to the next grant, never to bonuses already granted. */
export const BonusRulesSection = () => {
  const { record, fields, busy, refusal, change, submit } = useSection("bonusRules")
  if (!record) return <p className="muted" aria-busy="true">{refusal ? refusal.message : "Loading…"}</p>
  const value = (name: string, now: string | number) => fields[name] ?? String(now)
  const terms = (prefix: Prefix, label: string) => {
    const now = record[prefix]
    return (
      <div className="row">
        <label className="field"><span>{label} percent</span><input className="input" inputMode="numeric" value={value(`${prefix}Percent`, now.percent)} onChange={change(`${prefix}Percent`)} /></label>
        <label className="field"><span>{label} cap (₹)</span><input className="input" inputMode="decimal" value={value(`${prefix}Cap`, now.cap)} onChange={change(`${prefix}Cap`)} /></label>
        <label className="field"><span>{label} wagering (times)</span><input className="input" inputMode="numeric" value={value(`${prefix}WagerTimes`, now.wagerTimes)} onChange={change(`${prefix}WagerTimes`)} /></label>
      </div>
    )
  }
  return (
    <form className="card stack" aria-label="Bonus rules" onSubmit={submit("save")}>
      <p className="muted">On a player's first approved deposit. A change applies to the next grant; bonuses already granted keep their amounts.</p>
      <div className="row">
        <label className="field"><span>Welcome code</span><input className="input mono" maxLength={32} value={value("welcomeCode", record.welcome.code)} onChange={change("welcomeCode")} /></label>
        <label className="field"><span>Welcome title</span><input className="input" maxLength={60} value={value("welcomeTitle", record.welcome.title)} onChange={change("welcomeTitle")} /></label>
      </div>
      {terms("welcome", "Welcome")}
      <p className="muted">The referrer's reward, once the referred player has wagered their deposit the times below.</p>
      {terms("referral", "Referral")}
      <Refusal refusal={refusal} />
      <div><button type="submit" className="btn btn-primary" disabled={busy}>Save bonus rules</button></div>
    </form>
  )
}
