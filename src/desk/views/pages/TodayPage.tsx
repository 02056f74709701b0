import { useSelector } from "@xstate/react"
import { useMemo } from "react"
import type { Figures, TodayReport } from "../../../schema/desk/reports.ts"
import { EVERY_RECORD } from "../../machines/record.machine.ts"
import { useDeskFlow } from "../flows.ts"
import { Chart } from "../widgets/Chart.tsx"
import { rupees } from "../widgets/format.ts"

const LINES: ReadonlyArray<readonly [string, (f: Figures) => string]> = [
  ["Deposits", (f) => rupees(f.deposits)],
  ["Withdrawals", (f) => rupees(f.withdrawals)],
  ["Net cash", (f) => rupees(f.netCash)],
  ["Turnover, sports", (f) => rupees(f.turnover.sports)],
  ["Turnover, casino", (f) => rupees(f.turnover.casino)],
  ["GGR, sports", (f) => rupees(f.ggr.sports)],
  ["GGR, casino", (f) => rupees(f.ggr.casino)],
  ["Bets", (f) => String(f.bets)],
  ["Active players", (f) => String(f.activePlayers)],
  ["Sign-ups", (f) => String(f.signUps)]
]

const COLORS = { a: "#2f7de1", b: "#d9822b", c: "#2e9e5b" } as const

/** The charts of the last `span` days, with the period's numbers beside them. */
const Charts = ({ report, span }: { readonly report: TodayReport; readonly span: 7 | 30 }) => {
  const days = useMemo(() => report.days.slice(-span), [report, span])
  const dates = useMemo(() => days.map((d) => d.day), [days])
  const cash = useMemo(() => [
    { label: "Deposits", color: COLORS.a, values: days.map((d) => d.deposits) },
    { label: "Withdrawals", color: COLORS.b, values: days.map((d) => d.withdrawals) },
    { label: "Net cash", color: COLORS.c, values: days.map((d) => d.netCash) }
  ], [days])
  const ggr = useMemo(() => [
    { label: "Sports", color: COLORS.a, values: days.map((d) => d.ggr.sports) },
    { label: "Casino", color: COLORS.b, values: days.map((d) => d.ggr.casino) }
  ], [days])
  const play = useMemo(() => [
    { label: "Turnover, sports", color: COLORS.a, values: days.map((d) => d.turnover.sports) },
    { label: "Turnover, casino", color: COLORS.b, values: days.map((d) => d.turnover.casino) }
  ], [days])
  return (
    <div className="grid-3">
      <Chart title="Cash (₹)" days={dates} series={cash} />
      <Chart title="GGR (₹)" days={dates} series={ggr} />
      <Chart title="Turnover (₹)" days={dates} series={play} />
    </div>
  )
}

/** Today: cash, play and players today and over 7 and 30 days (India days), what waits, and charts of the days. */
export const TodayPage = () => {
  const flow = useDeskFlow("today", { input: { id: EVERY_RECORD } })
  const report = useSelector(flow, (s) => s?.context.record)
  const span = useSelector(flow, (s) => s?.context.fields.span) === "30" ? 30 : 7
  const refusal = useSelector(flow, (s) => s?.context.refusal)
  if (!flow || !report) return <section className="card muted" aria-busy={!refusal}>{refusal?.message ?? "Loading…"}</section>
  return (
    <>
      <h1>Today</h1>
      <section className="grid-3" aria-label="Waiting">
        <div className="card"><h3>Deposits waiting</h3><div className="figure">{report.pending.deposits}</div></div>
        <div className="card"><h3>Withdrawals waiting</h3><div className="figure">{report.pending.withdrawals}</div></div>
        <div className="card"><h3>Approvals waiting</h3><div className="figure">{report.pending.approvals}</div></div>
      </section>
      <div className="grid-2">
        <section className="stack">
          <div className="row" role="group" aria-label="Charts of">
            {(["7", "30"] as const).map((value) => (
              <button key={value} type="button" className={`btn btn-small${String(span) === value ? " btn-primary" : ""}`} aria-pressed={String(span) === value}
                onClick={() => flow.send({ type: "field.change", field: "span", value })}>{value} days</button>
            ))}
          </div>
          <Charts report={report} span={span} />
        </section>
        <table className="data" aria-label="Figures">
          <thead><tr><th scope="col"></th><th scope="col">Today</th><th scope="col">7 days</th><th scope="col">30 days</th></tr></thead>
          <tbody>
            {LINES.map(([label, value]) => (
              <tr key={label}><th scope="row">{label}</th><td className="num">{value(report.today)}</td><td className="num">{value(report.week)}</td><td className="num">{value(report.month)}</td></tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
