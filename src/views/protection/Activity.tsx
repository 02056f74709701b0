import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import { formatRupees } from "../../domain/money.ts"
import type { activityMachine } from "../../machines/activity.machine.ts"
import type { ActivityMonth } from "../../schema/protection.ts"
import { duration } from "./RealityCheckDialog.tsx"
import { Section } from "./Section.tsx"
import type { ProtectionRef } from "./useProtection.ts"

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const monthName = (key: string) => `${MONTH_NAMES[Number(key.slice(5, 7)) - 1]} ${key.slice(0, 4)}`
const signed = (amount: number) => (amount > 0 ? `+${formatRupees(amount)}` : formatRupees(amount))

/**
 * Net result per month as bars above (won) or below (lost) a zero line. The
 * chart is an image with a text alternative; the table below it carries
 * every figure for screen readers and for reading exact amounts.
 */
const NetChart = ({ months }: { months: ReadonlyArray<ActivityMonth> }) => {
  const largest = Math.max(1, ...months.map((m) => Math.abs(m.netResult)))
  const width = 24
  const gap = 8
  const half = 60
  const summary = months.map((m) => `${monthName(m.month)} ${signed(m.netResult)}`).join(", ")
  return (
    <svg
      role="img"
      aria-label={`Net result per month: ${summary}`}
      viewBox={`0 0 ${months.length * (width + gap)} ${half * 2 + 16}`}
      className="h-40 w-full max-w-2xl"
      data-testid="activity-chart"
    >
      <line x1={0} x2={months.length * (width + gap)} y1={half} y2={half} stroke="currentColor" strokeOpacity={0.3} />
      {months.map((m, i) => {
        const h = (Math.abs(m.netResult) / largest) * (half - 4)
        return (
          <g key={m.month}>
            <rect
              x={i * (width + gap) + gap / 2}
              y={m.netResult >= 0 ? half - h : half}
              width={width}
              height={Math.max(h, m.netResult === 0 ? 0 : 1)}
              className={m.netResult >= 0 ? "fill-[rgb(var(--ok))]" : "fill-[rgb(var(--bad))]"}
            />
            <text x={i * (width + gap) + gap / 2 + width / 2} y={half * 2 + 12} textAnchor="middle" fontSize={9} fill="currentColor" fillOpacity={0.7}>
              {MONTH_NAMES[Number(m.month.slice(5, 7)) - 1]}
            </text>
          </g>
        )
      })}
    </svg>
  )
}

type ActivityRef = ActorRefFrom<typeof activityMachine>

const ActivityBody = ({ activity }: { activity: ActivityRef }) => {
  useEffect(() => activity.send({ type: "activity.load" }), [activity])
  const statement = useSelector(activity, (s) => s.context.statement)
  const loading = useSelector(activity, (s) => s.hasTag("busy"))
  const failed = useSelector(activity, (s) => s.hasTag("failed"))
  if (!statement) {
    return failed ? (
      <p className="m-0 text-sm">The statement could not be loaded. <button type="button" className="text-brand underline" onClick={() => activity.send({ type: "activity.load" })}>Try again</button></p>
    ) : loading ? <p role="status" className="m-0 text-sm text-muted">Loading your statement…</p> : null
  }
  const months = statement.months
  return (
    <>
      <NetChart months={months} />
      <div className="overflow-x-auto">
        <table className="w-full min-w-[560px] border-collapse text-sm" data-testid="activity-table">
          <caption className="sr-only">Your activity per month, the last 12 months</caption>
          <thead>
            <tr className="text-left text-muted">
              {["Month", "Deposits", "Withdrawals", "Stakes", "Net result", "Time spent"].map((h) => <th key={h} scope="col" className="border-b border-line px-2 py-1.5 font-600">{h}</th>)}
            </tr>
          </thead>
          <tbody>
            {[...months].reverse().map((m) => (
              <tr key={m.month}>
                <th scope="row" className="border-b border-line px-2 py-1.5 text-left font-600">{monthName(m.month)}</th>
                <td className="border-b border-line px-2 py-1.5">{formatRupees(m.deposits)}</td>
                <td className="border-b border-line px-2 py-1.5">{formatRupees(m.withdrawals)}</td>
                <td className="border-b border-line px-2 py-1.5">{formatRupees(m.stakes)}</td>
                <td className={`border-b border-line px-2 py-1.5 ${m.netResult < 0 ? "text-bad" : m.netResult > 0 ? "text-ok" : ""}`}>{signed(m.netResult)}</td>
                <td className="border-b border-line px-2 py-1.5">{duration(m.timeSpentSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

export const Activity = ({ protection }: { protection: ProtectionRef }) => {
  const activity = useSelector(protection, (s) => s.children.activity)
  return (
    <Section id="activity" title="Activity statement">
      <p className="m-0 text-sm text-muted">Deposits, withdrawals, stakes, net result and time spent, per month for the last 12 months (India time).</p>
      {activity ? <ActivityBody activity={activity} /> : null}
    </Section>
  )
}
