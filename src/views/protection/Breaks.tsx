import { useSelector } from "@xstate/react"
import { EXCLUSION_MONTHS, type ExclusionMonths, TIME_OUT_DAYS, type TimeOutDays } from "../../domain/protection.ts"
import { Dialog } from "../widgets/Dialog.tsx"
import { at, Refusal, Section } from "./Section.tsx"
import type { ProtectionRef } from "./useProtection.ts"

const TIME_OUT_LABEL: Record<TimeOutDays, string> = { 1: "24 hours", 7: "7 days", 42: "6 weeks" }
const EXCLUSION_LABEL: Record<ExclusionMonths, string> = { 6: "6 months", 12: "1 year", 24: "2 years", 60: "5 years" }

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

export const Breaks = ({ protection }: { protection: ProtectionRef }) => {
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
