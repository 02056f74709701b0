import { useSelector } from "@xstate/react"
import { formatRupees } from "../../domain/money.ts"
import { LIMIT_KINDS, LIMIT_PERIODS, PERIOD_LABEL } from "../../domain/protection.ts"
import { type LimitKey, limitKey, stageOf } from "../../machines/protection.machine.ts"
import type { Limit } from "../../schema/protection.ts"
import { TextInput } from "../widgets/Form.tsx"
import { at, Refusal, Section } from "./Section.tsx"
import type { ProtectionRef } from "./useProtection.ts"

const KIND_LABEL = { deposit: "Deposit limits", loss: "Loss limits" } as const
const KIND_HINT = {
  deposit: "Everything you deposit counts; withdrawals do not give it back.",
  loss: "What you lose on settled bets and casino rounds, less what you win, plus what open bets can still lose."
} as const

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

export const Limits = ({ protection }: { protection: ProtectionRef }) => {
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
