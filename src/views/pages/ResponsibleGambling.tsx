import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import { useLocation } from "react-router"
import type { ActorRefFrom } from "xstate"
import { formatRupees } from "../../domain/money.ts"
import {
  EXCLUSION_MONTHS,
  indiaDateTime,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  PERIOD_LABEL,
  REALITY_CHECK_MINUTES,
  TIME_OUT_DAYS,
  type ExclusionMonths,
  type TimeOutDays
} from "../../domain/protection.ts"
import type { activityMachine } from "../../machines/activity.machine.ts"
import { type LimitKey, limitKey, limitOf, type ProtectionSection, stageOf } from "../../machines/protection.machine.ts"
import type { ActivityMonth, Limit } from "../../schema/protection.ts"
import { duration } from "../protection/RealityCheckDialog.tsx"
import { type ProtectionRef, useProtection } from "../protection/useProtection.ts"
import { useOpenAuth, useRestoring, useSession } from "../session.ts"
import { Dialog } from "../widgets/Dialog.tsx"
import { Alert, TextInput } from "../widgets/Form.tsx"
import { PageLoading } from "../widgets/PageLoading.tsx"
import Content from "./Content.tsx"

const at = (iso: string) => indiaDateTime(new Date(iso))

const KIND_LABEL = { deposit: "Deposit limits", loss: "Loss limits" } as const
const KIND_HINT = {
  deposit: "Everything you deposit counts; withdrawals do not give it back.",
  loss: "What you lose on settled bets and casino rounds, less what you win, plus what open bets can still lose."
} as const
const TIME_OUT_LABEL: Record<TimeOutDays, string> = { 1: "24 hours", 7: "7 days", 42: "6 weeks" }
const EXCLUSION_LABEL: Record<ExclusionMonths, string> = { 6: "6 months", 12: "1 year", 24: "2 years", 60: "5 years" }

const Refusal = ({ protection, section }: { protection: ProtectionRef; section: ProtectionSection }) => {
  const message = useSelector(protection, (s) => (s.context.refusal?.section === section ? s.context.refusal.message : undefined))
  return <Alert message={message} />
}

const Section = ({ id, title, children }: { id: string; title: string; children: React.ReactNode }) => (
  <section id={id} aria-labelledby={`${id}-title`} className="card flex scroll-mt-20 flex-col gap-3 p-4">
    <h2 id={`${id}-title`} className="m-0 text-lg font-700">{title}</h2>
    {children}
  </section>
)

/** One limit: what is in force and left, a change waiting out its 24 hours or ready to confirm, and a box to type a new one. */
const LimitRow = ({ protection, limit }: { protection: ProtectionRef; limit: Limit }) => {
  const key: LimitKey = limitKey(limit.kind, limit.period)
  const name = `${PERIOD_LABEL[limit.period]} ${limit.kind} limit`
  const typed = useSelector(protection, (s) => s.context.form.limits[key])
  const error = useSelector(protection, (s) => s.context.fieldErrors[key])
  const stage = useSelector(protection, (s) => stageOf(limit, s.context.now))
  const busy = useSelector(protection, (s) => s.hasTag("busy"))
  const inputId = `limit-${limit.kind}-${limit.period}`
  return (
    <li className="flex flex-col gap-2 border-t border-line pt-3 first:(border-t-0 pt-0)" data-testid={inputId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="m-0 text-sm font-700">{PERIOD_LABEL[limit.period]} (rolling)</h4>
        {limit.amount === null ? (
          <span className="text-sm text-muted" data-testid={`${inputId}-status`}>No limit</span>
        ) : (
          <span className="text-sm" data-testid={`${inputId}-status`}>
            <strong>{formatRupees(limit.amount)}</strong> in force{limit.inForceSince ? ` since ${at(limit.inForceSince)}` : ""} · used {formatRupees(limit.used)} ·{" "}
            left <strong>{formatRupees(limit.remaining ?? 0)}</strong>
            {limit.resetsAt ? ` · more from ${at(limit.resetsAt)}` : ""}
          </span>
        )}
      </div>
      {limit.pending ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-line bg-raised px-3 py-2 text-sm" data-testid={`${inputId}-pending`}>
          <span>
            {limit.pending.amount === null ? "Removing this limit" : `Raising it to ${formatRupees(limit.pending.amount)}`}:{" "}
            {stage === "confirmable"
              ? "you can confirm it now. Until you do, the current limit holds."
              : `not in force yet. You can confirm it from ${at(limit.pending.confirmableAt)}.`}
          </span>
          {stage === "confirmable" ? (
            <button type="button" className="btn-brand py-1.5" disabled={busy} onClick={() => protection.send({ type: "limit.confirm", key })}>
              Confirm {name}
            </button>
          ) : null}
        </div>
      ) : null}
      <form
        className="flex flex-wrap items-start gap-2"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          protection.send({ type: "limit.save", key })
        }}
      >
        <div className="flex min-w-48 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="sr-only">New {name} in rupees</label>
          <TextInput
            id={inputId}
            inputMode="decimal"
            placeholder={limit.amount === null ? "Amount in ₹, e.g. 5,000" : "New amount in ₹"}
            value={typed}
            aria-invalid={error !== undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(e) => protection.send({ type: "limit.change", key, value: e.target.value })}
          />
          {error ? <p id={`${inputId}-error`} className="m-0 text-xs text-bad">{error}</p> : null}
        </div>
        <button type="submit" className="btn-brand py-2" disabled={busy} aria-label={`Save ${name}`}>Save</button>
        {limit.amount !== null ? (
          <button type="button" className="btn-ghost py-2" disabled={busy} aria-label={`Remove ${name}`} onClick={() => protection.send({ type: "limit.remove", key })}>
            Remove
          </button>
        ) : null}
      </form>
    </li>
  )
}

const Limits = ({ protection }: { protection: ProtectionRef }) => {
  const limits = useSelector(protection, (s) => s.context.protection?.limits ?? [])
  return (
    <Section id="limits" title="Deposit and loss limits">
      <p className="m-0 text-sm text-muted">
        A new limit or a lower one is in force at once. A higher limit, or removing one, takes 24 hours and then needs you to confirm it; until then the
        current limit holds. When several limits apply, the lowest wins.
      </p>
      <Refusal protection={protection} section="limits" />
      {LIMIT_KINDS.map((kind) => (
        <div key={kind} className="flex flex-col gap-2">
          <h3 className="m-0 text-base font-700">{KIND_LABEL[kind]}</h3>
          <p className="m-0 text-xs text-muted">{KIND_HINT[kind]}</p>
          <ul className="m-0 flex list-none flex-col gap-3 p-0">
            {LIMIT_PERIODS.map((period) => {
              const limit = limits.find((l) => l.kind === kind && l.period === period)
              return limit ? <LimitRow key={period} protection={protection} limit={limit} /> : null
            })}
          </ul>
        </div>
      ))}
    </Section>
  )
}

const RealityChecks = ({ protection }: { protection: ProtectionRef }) => {
  const minutes = useSelector(protection, (s) => s.context.protection?.realityCheck.minutes ?? 0)
  const busy = useSelector(protection, (s) => s.hasTag("busy"))
  return (
    <Section id="reality-check" title="Reality checks">
      <p className="m-0 text-sm text-muted">A reminder at the interval you choose: how long you have been playing and how you stand this session.</p>
      <Refusal protection={protection} section="realityCheck" />
      <fieldset className="m-0 flex flex-wrap gap-3 border-0 p-0">
        <legend className="mb-1 text-sm font-600">Remind me</legend>
        {REALITY_CHECK_MINUTES.map((choice) => (
          <label key={choice} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="reality-check"
              checked={minutes === choice}
              disabled={busy}
              onChange={() => protection.send({ type: "realityCheck.set", minutes: choice })}
              className="h-4 w-4 accent-[rgb(var(--brand))]"
            />
            {choice === 0 ? "Off" : `Every ${choice} minutes`}
          </label>
        ))}
      </fieldset>
    </Section>
  )
}

/** The confirmation a time-out or self-exclusion needs: neither can be shortened once it starts. */
const ConfirmClosure = ({ protection }: { protection: ProtectionRef }) => {
  const command = useSelector(protection, (s) => (s.hasTag("confirming") ? s.context.command : undefined))
  if (!command || (command.type !== "timeOut" && command.type !== "selfExclude")) return null
  const what = command.type === "timeOut" ? `take a break for ${TIME_OUT_LABEL[command.days]}` : `exclude yourself for ${EXCLUSION_LABEL[command.months]}`
  return (
    <Dialog open title={command.type === "timeOut" ? "Take a break?" : "Self-exclude?"} onClose={() => protection.send({ type: "command.cancel" })} testId="confirm-closure">
      <div className="flex flex-col gap-3">
        <p className="m-0">
          You are about to {what}. Until it ends you cannot bet, play casino games or deposit{command.type === "selfExclude" ? ", or take bonuses" : ""}.
          You can still sign in and withdraw your balance. <strong>It cannot be shortened or undone.</strong>
          {command.type === "selfExclude" ? " You will be signed out now." : ""}
        </p>
        <div className="flex gap-2">
          <button type="button" className="btn-brand flex-1" onClick={() => protection.send({ type: "command.confirm" })}>
            {command.type === "timeOut" ? "Start my break" : "Exclude me"}
          </button>
          <button type="button" className="btn-ghost flex-1" onClick={() => protection.send({ type: "command.cancel" })}>Cancel</button>
        </div>
      </div>
    </Dialog>
  )
}

/** A period chosen from a list, and the button that asks for it. */
const PeriodForm = <T extends number,>({ label, options, value, onChange, submit, disabled, onSubmit }: {
  label: string
  options: ReadonlyArray<readonly [T, string]>
  value: T
  onChange: (value: T) => void
  submit: string
  disabled: boolean
  onSubmit: () => void
}) => (
  <form
    className="flex flex-wrap items-end gap-2"
    onSubmit={(event) => {
      event.preventDefault()
      onSubmit()
    }}
  >
    <label className="flex flex-col gap-1 text-sm font-600">
      {label}
      <select className="field" value={value} onChange={(e) => onChange(options.find(([v]) => String(v) === e.target.value)![0])}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </label>
    <button type="submit" className="btn-brand py-2" disabled={disabled}>{submit}</button>
  </form>
)

const Breaks = ({ protection }: { protection: ProtectionRef }) => {
  const timeOut = useSelector(protection, (s) => s.context.protection?.timeOut)
  const exclusion = useSelector(protection, (s) => s.context.protection?.selfExclusion)
  const closed = useSelector(protection, (s) => s.context.protection?.closed)
  const days = useSelector(protection, (s) => s.context.form.timeOutDays)
  const months = useSelector(protection, (s) => s.context.form.exclusionMonths)
  const busy = useSelector(protection, (s) => s.hasTag("busy"))
  return (
    <>
      <Section id="time-out" title="Take a break">
        <p className="m-0 text-sm text-muted">No bets, casino games or deposits until the break ends. You can still sign in, see your balance and withdraw.</p>
        {timeOut ? <p className="m-0 text-sm font-600" data-testid="time-out-status">You are taking a break until {at(timeOut.until)}.</p> : null}
        <Refusal protection={protection} section="timeOut" />
        <PeriodForm
          label="Break for"
          options={TIME_OUT_DAYS.map((d) => [d, TIME_OUT_LABEL[d]] as const)}
          value={days}
          onChange={(d) => protection.send({ type: "timeOut.change", days: d })}
          submit="Take a break"
          disabled={busy || closed?.reason === "SelfExcluded"}
          onSubmit={() => protection.send({ type: "timeOut.submit" })}
        />
      </Section>
      <Section id="self-exclusion" title="Self-exclusion">
        <p className="m-0 text-sm text-muted">
          Your account is closed to betting, casino games, deposits and bonuses for the whole period, and you see no offers. Open bets settle as usual and
          you can sign in to withdraw. It cannot be undone early; when it ends, the account stays closed until you ask to return and 24 hours pass.
        </p>
        {exclusion ? (
          <p className="m-0 text-sm font-600" data-testid="self-exclusion-status">
            Self-excluded until {at(exclusion.until)}.{exclusion.returnsAt ? ` Your account reopens on ${at(exclusion.returnsAt)}.` : ""}
          </p>
        ) : null}
        {closed?.reason === "SelfExcluded" && closed.until === null ? (
          <p className="m-0 text-sm">{closed.message}</p>
        ) : null}
        <Refusal protection={protection} section="selfExclusion" />
        {closed?.reason === "SelfExcluded" && closed.until === null ? (
          <button type="button" className="btn-brand self-start py-2" disabled={busy} onClick={() => protection.send({ type: "return.request" })}>Ask to return</button>
        ) : (
          <PeriodForm
            label="Exclude me for"
            options={EXCLUSION_MONTHS.map((m) => [m, EXCLUSION_LABEL[m]] as const)}
            value={months}
            onChange={(m) => protection.send({ type: "selfExclusion.change", months: m })}
            submit="Self-exclude"
            disabled={busy}
            onSubmit={() => protection.send({ type: "selfExclusion.submit" })}
          />
        )}
      </Section>
      <ConfirmClosure protection={protection} />
    </>
  )
}

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

const Activity = ({ protection }: { protection: ProtectionRef }) => {
  const activity = useSelector(protection, (s) => s.children.activity)
  return (
    <Section id="activity" title="Activity statement">
      <p className="m-0 text-sm text-muted">Deposits, withdrawals, stakes, net result and time spent, per month for the last 12 months (India time).</p>
      {activity ? <ActivityBody activity={activity} /> : null}
    </Section>
  )
}

const Tools = ({ protection }: { protection: ProtectionRef }) => {
  const ready = useSelector(protection, (s) => s.context.protection !== undefined)
  const failed = useSelector(protection, (s) => s.hasTag("failed"))
  const closed = useSelector(protection, (s) => s.context.protection?.closed)
  const { hash } = useLocation()
  // The footer's and the reality check's links land on their section once it is there.
  useEffect(() => {
    if (ready && hash) document.getElementById(hash.slice(1))?.scrollIntoView()
  }, [ready, hash])
  if (!ready) {
    return failed ? (
      <p className="card m-0 p-4">Your settings could not be loaded. <button type="button" className="text-brand underline" onClick={() => protection.send({ type: "protection.reload" })}>Try again</button></p>
    ) : <PageLoading />
  }
  return (
    <div className="flex flex-col gap-4">
      {closed ? <p role="status" className="card m-0 border-bad/40 p-4 font-600" data-testid="closure">{closed.message}</p> : null}
      <Limits protection={protection} />
      <RealityChecks protection={protection} />
      <Breaks protection={protection} />
      <Activity protection={protection} />
    </div>
  )
}

/** /responsible-gambling: a signed-in player's tools (limits, reality checks, breaks, statement), then the guidance every visitor reads. */
const ResponsibleGambling = () => {
  const protection = useProtection()
  const restoring = useRestoring()
  const signedIn = useSession((s) => s.hasTag("signedIn"))
  const openAuth = useOpenAuth()
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="page-title m-0">Responsible Gambling</h1>
      {signedIn && protection ? <Tools protection={protection} /> : restoring ? <PageLoading /> : (
        <p className="card m-0 p-4">
          <button type="button" className="text-brand underline" onClick={() => openAuth("login")}>Sign in</button> to set deposit and loss limits, reality
          checks, a break or self-exclusion, and to see your activity statement.
        </p>
      )}
      <Content page="responsible" embedded />
    </div>
  )
}

export default ResponsibleGambling
