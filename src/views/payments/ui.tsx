import { useState } from "react"
import { formatSigned } from "../../domain/money.ts"
import type { DayRange } from "../../domain/ranges.ts"
import { isCreditPlayer } from "../../domain/account.ts"
import type { User } from "../../schema/user.ts"
import Account from "../pages/Account.tsx"
import { useRestoring, useUser } from "../session.ts"
import { Icon } from "../widgets/Icon.tsx"
import { PageLoading } from "../widgets/PageLoading.tsx"

type Section = "deposit" | "withdrawal" | "bonus" | "referral" | "statements" | "profitLoss"

/**
 * The player's pages: visitors get the log-in frame, credit players a note
 * for the pages they do not have (SPEC section 6); players the page.
 */
export const PlayerPage = ({ section, title, creditPlayers = false, children }: {
  section: Section
  title: string
  creditPlayers?: boolean
  children: (user: User) => React.ReactNode
}) => {
  const user = useUser()
  const restoring = useRestoring()
  if (!user) return restoring ? <PageLoading /> : <Account section={section} />
  if (!creditPlayers && isCreditPlayer(user)) {
    return (
      <div className="flex flex-col gap-3">
        <h1 className="page-title m-0">{title}</h1>
        <div className="card p-6 text-center text-muted" role="note">Credit accounts have no {title.toLowerCase()}. Your agent manages your credit.</div>
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-4">
      <h1 className="page-title m-0">{title}</h1>
      {children(user)}
    </div>
  )
}

const dateTime = new Intl.DateTimeFormat("en-IN", { day: "2-digit", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false })
export const when = (iso: string) => dateTime.format(new Date(iso))

/** Each date bounds the other while the player edits them (the browser then refuses a range that runs backwards). */
const boundEachOther = (event: React.FormEvent<HTMLFormElement>) => {
  const from = event.currentTarget.elements.namedItem("start_date")
  const to = event.currentTarget.elements.namedItem("end_date")
  if (!(from instanceof HTMLInputElement) || !(to instanceof HTMLInputElement)) return
  from.max = to.value
  to.min = from.value
}

/**
 * From and To pickers (calendar days, India time on the server) with a Search
 * button. The inputs are the draft until Search sends the range to the flow
 * (`onChange`); a new range from the flow resets them.
 */
export const DateRangePicker = ({ value, onChange, children }: { value: DayRange; onChange: (range: DayRange) => void; children?: React.ReactNode }) => (
  <form
    key={`${value.start_date}/${value.end_date}`}
    className="flex flex-wrap items-end gap-2"
    aria-label="Date range"
    onInput={boundEachOther}
    onSubmit={(event) => {
      event.preventDefault()
      const form = new FormData(event.currentTarget)
      onChange({ start_date: String(form.get("start_date")), end_date: String(form.get("end_date")) })
    }}
  >
    <label className="flex flex-col gap-1 text-xs text-muted">
      From
      <input type="date" name="start_date" className="field py-1.5" defaultValue={value.start_date} max={value.end_date} required />
    </label>
    <label className="flex flex-col gap-1 text-xs text-muted">
      To
      <input type="date" name="end_date" className="field py-1.5" defaultValue={value.end_date} min={value.start_date} required />
    </label>
    {children}
    <button type="submit" className="btn-brand py-1.5">Search</button>
  </form>
)

/** Copies a detail to the clipboard and says so for a moment. */
export const CopyButton = ({ value, label }: { value: string; label: string }) => {
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).catch(() => undefined)
        setCopied(true)
        setTimeout(() => setCopied(false), 1500)
      }}
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-muted hover:(bg-raised text-fg)"
    >
      <Icon name="copy" size={14} />
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  )
}

const STATUS_TONE: Record<string, string> = {
  pending: "bg-warn/15 text-warn",
  approved: "bg-ok/15 text-ok",
  rejected: "bg-bad/15 text-bad",
  available: "bg-brand/15 text-brand",
  active: "bg-warn/15 text-warn",
  completed: "bg-ok/15 text-ok",
  claimed: "bg-ok/15 text-ok",
  forfeited: "bg-bad/15 text-bad"
}

export const StatusBadge = ({ status }: { status: string }) => (
  <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-700 capitalize ${STATUS_TONE[status] ?? "bg-raised text-muted"}`}>{status}</span>
)

/** A table that scrolls sideways on phones; `empty` shows when there are no rows. */
export const Table = ({ caption, head, rows, empty = "No Data Available", foot, testId }: {
  caption: string
  head: ReadonlyArray<string>
  rows: ReadonlyArray<ReadonlyArray<React.ReactNode>>
  empty?: string
  foot?: ReadonlyArray<React.ReactNode>
  testId?: string
}) => (
  <div className="card overflow-x-auto">
    <table className="w-full border-collapse text-sm" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="bg-raised text-left text-xs uppercase text-muted">
          {head.map((h, i) => <th key={h} scope="col" className={`px-3 py-2 font-700 ${i > 0 && /amount|credit|debit|balance|p\/l|reward/i.test(h) ? "text-right" : ""}`}>{h}</th>)}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr><td colSpan={head.length} className="px-3 py-6 text-center text-muted">{empty}</td></tr>
        ) : rows.map((row, r) => (
          <tr key={r} className="border-t border-line">
            {row.map((cell, c) => <td key={c} className={`px-3 py-2 align-top ${c > 0 && /amount|credit|debit|balance|p\/l|reward/i.test(head[c] ?? "") ? "text-right tabular-nums" : ""}`}>{cell}</td>)}
          </tr>
        ))}
      </tbody>
      {foot ? (
        <tfoot>
          <tr className="border-t-2 border-line font-700">
            {foot.map((cell, c) => <td key={c} className={`px-3 py-2 ${c > 0 && /amount|credit|debit|balance|p\/l|reward/i.test(head[c] ?? "") ? "text-right tabular-nums" : ""}`}>{cell}</td>)}
          </tr>
        </tfoot>
      ) : null}
    </table>
  </div>
)

/** Signed amounts: credits green, debits red, always two decimals. */
export const Signed = ({ amount }: { amount: number }) => (
  <span className={amount > 0 ? "text-ok" : amount < 0 ? "text-bad" : ""}>{formatSigned(amount)}</span>
)
