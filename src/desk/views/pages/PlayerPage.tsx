import { useSelector } from "@xstate/react"
import type { ReactNode } from "react"
import { Link, useParams } from "react-router"
import type { DeskBet, PlayerDetail, PlayerSession, PlayerStatus } from "../../../schema/desk/players.ts"
import type { DepositRequest, PaymentAccount, WithdrawalRequest } from "../../../schema/payments.ts"
import { Roles } from "../../../schema/roles.ts"
import type { StatementRow } from "../../../schema/statements.ts"
import type { DeskFlowRef } from "../../machines/flows.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { Dialog } from "../widgets/Dialog.tsx"
import { rupees, when } from "../widgets/format.ts"
import { AdjustmentRequests } from "./AdjustmentRequests.tsx"
import { CasinoRounds } from "./CasinoRounds.tsx"
import { StatusBadge } from "./QueuePage.tsx"

type PlayerRef = DeskFlowRef<"player">

const STATUS_LABEL: Readonly<Record<PlayerStatus, string>> = { active: "active", suspended: "suspended", pending: "not verified" }
export const PlayerStatusBadge = ({ status }: { readonly status: PlayerStatus }) => (
  <span className={`badge ${status === "active" ? "badge-ok" : status === "suspended" ? "badge-bad" : "badge-pending"}`}>{STATUS_LABEL[status]}</span>
)

const money = (value: number) => <span className="num">{rupees(value)}</span>

const STATEMENT = columns<StatementRow>([
  { id: "at", header: "When", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "what", header: "What", cell: ({ row }) => <span>{row.original.title} <span className="muted">{row.original.description}</span></span> },
  { id: "amount", header: "Amount", cell: ({ row }) => money(row.original.amount) },
  { id: "balance", header: "Balance", cell: ({ row }) => money(row.original.balance) }
])

const BETS = columns<DeskBet>([
  { id: "at", header: "Placed", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "bet", header: "Bet", cell: ({ row }) => <span>{row.original.side} {row.original.selection} @ {row.original.odds} <span className="muted">{row.original.event} · {row.original.market}</span></span> },
  {
    id: "stake",
    header: "Stake",
    cell: ({ row }) => (
      <span>{money(row.original.stake)}{row.original.unmatched > 0 && <span className="muted"> ({rupees(row.original.unmatched)} unmatched)</span>}{row.original.cancelled > 0 && <span className="muted"> ({rupees(row.original.cancelled)} cancelled)</span>}</span>
    )
  },
  { id: "liability", header: "Liability", cell: ({ row }) => money(row.original.liability) },
  { id: "result", header: "Result", cell: ({ row }) => row.original.status === "open" ? "open" : <span>{row.original.status} {row.original.profitLoss !== null && money(row.original.profitLoss)}</span> }
])

const DEPOSITS = columns<DepositRequest>([
  { id: "at", header: "Requested", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "amount", header: "Amount", cell: ({ row }) => money(row.original.amount) },
  { id: "ref", header: "Reference", cell: ({ row }) => <span className="mono">{row.original.txnRef ?? ""}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} /> }
])

const WITHDRAWALS = columns<WithdrawalRequest>([
  { id: "at", header: "Requested", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "amount", header: "Amount", cell: ({ row }) => money(row.original.amount) },
  { id: "to", header: "To", cell: ({ row }) => <span className="mono">{row.original.account.accountNumber}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} kind="withdrawal" /> }
])

const ACCOUNTS = columns<PaymentAccount>([
  { id: "type", header: "Kind", cell: ({ row }) => row.original.type === "upi" ? "UPI" : row.original.bankName ?? "Bank" },
  { id: "number", header: "Account", cell: ({ row }) => <span className="mono">{row.original.accountNumber}{row.original.ifscCode ? ` · ${row.original.ifscCode}` : ""}</span> },
  { id: "holder", header: "Holder", cell: ({ row }) => row.original.accountHolderName }
])

const SESSIONS = columns<PlayerSession>([
  { id: "from", header: "Signed in", cell: ({ row }) => when(row.original.createdAt) },
  { id: "seen", header: "Last seen", cell: ({ row }) => when(row.original.lastSeenAt) },
  { id: "ip", header: "From", cell: ({ row }) => <span className="mono">{row.original.ip ?? "?"}</span> },
  { id: "agent", header: "Browser", cell: ({ row }) => <span className="muted">{(row.original.userAgent ?? "").slice(0, 60)}</span> }
])

const Section = ({ title, children }: { readonly title: string; readonly children: ReactNode }) => (
  <section className="stack" aria-label={title}>
    <h2>{title}</h2>
    {children}
  </section>
)

/** Protection as the player set it: read-only here (staff never lift a time-out or self-exclusion). */
const ProtectionState = ({ protection }: { readonly protection: PlayerDetail["protection"] }) => {
  const limits = protection.limits.filter((limit) => limit.amount !== null)
  return (
    <div className="card stack">
      <div>{protection.closed ? <span className="badge badge-bad">{protection.closed.message}</span> : <span className="badge badge-ok">open to play</span>}</div>
      {protection.timeOut && <div>Time-out until {when(protection.timeOut.until)}</div>}
      {protection.selfExclusion && <div>Self-excluded until {when(protection.selfExclusion.until)}</div>}
      <div className="muted">Limits: {limits.length === 0 ? "none" : limits.map((limit) => `${limit.kind} ${limit.period} ${rupees(limit.amount!)}`).join(", ")}</div>
      <div className="muted">{protection.realityCheck.minutes === 0 ? "No reality check" : `Reality check every ${protection.realityCheck.minutes} minutes`}</div>
    </div>
  )
}

/** Suspend or reactivate, and credit or debit: each in a dialog with its reason; the fields are the record machine's. */
const PlayerDialog = ({ player, detail }: { readonly player: PlayerRef; readonly detail: PlayerDetail }) => {
  const fields = useSelector(player, (s) => s.context.fields)
  const busy = useSelector(player, (s) => s.hasTag("busy"))
  const refusal = useSelector(player, (s) => s.context.refusal)
  const change = (field: string) => (event: { target: { value: string } }) => player.send({ type: "field.change", field, value: event.target.value })
  const close = () => player.send({ type: "field.change", field: "dialog", value: "" })
  const run = (command: string) => (event: { preventDefault: () => void }) => (event.preventDefault(), player.send({ type: "command.run", command }))
  const alert = refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>
  if (fields.dialog === "status") {
    const suspend = detail.player.status === "active"
    const title = suspend ? "Suspend player" : "Reactivate player"
    return (
      <Dialog title={title} onClose={close}>
        <form className="stack" aria-label={title} onSubmit={run(suspend ? "suspend" : "reactivate")}>
          {suspend && <p className="muted">Their sessions end at once and they cannot sign in until reactivated.</p>}
          <label className="field"><span>Reason</span><textarea className="input" rows={2} maxLength={200} value={fields.reason ?? ""} onChange={change("reason")} /></label>
          {alert}
          <div className="row">
            <button type="submit" className={suspend ? "btn btn-bad" : "btn btn-ok"} disabled={busy}>{suspend ? "Suspend" : "Reactivate"}</button>
            <button type="button" className="btn" onClick={close}>Cancel</button>
          </div>
        </form>
      </Dialog>
    )
  }
  if (fields.dialog === "adjust") {
    const direction = fields.direction === "debit" ? "debit" : "credit"
    return (
      <Dialog title="Manual adjustment" onClose={close}>
        <form className="stack" aria-label="Manual adjustment" onSubmit={run(direction)}>
          <p className="muted">One ledger transaction on the main balance ({rupees(detail.balances.main)} now); the player's statement shows the reason. Above the threshold a second staff member approves it first.</p>
          <label className="field"><span>Credit or debit</span>
            <select className="input" value={direction} onChange={change("direction")}>
              <option value="credit">Credit (add to the balance)</option>
              <option value="debit">Debit (take from the balance)</option>
            </select>
          </label>
          <label className="field"><span>Amount (₹)</span><input className="input" inputMode="decimal" value={fields.amount ?? ""} onChange={change("amount")} /></label>
          <label className="field"><span>Reason</span><input className="input" maxLength={200} value={fields.reason ?? ""} onChange={change("reason")} /></label>
          {alert}
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={busy}>{direction === "credit" ? "Credit" : "Debit"}</button>
            <button type="button" className="btn" onClick={close}>Cancel</button>
          </div>
        </form>
      </Dialog>
    )
  }
  return null
}

/** A player's page: who, balances, protection, notes, sessions, statement, bets, requests and payout accounts. */
export const PlayerPage = () => {
  const { id = "" } = useParams()
  const player = useDeskFlow("player", { id: `player:${id}`, input: { id } })
  const detail = useSelector(player, (s) => s?.context.record)
  const fields = useSelector(player, (s) => s?.context.fields) ?? {}
  const refusal = useSelector(player, (s) => s?.context.refusal)
  const busy = useSelector(player, (s) => s?.hasTag("busy")) ?? false
  const can = useCan()
  if (!player) return null
  if (!detail) return <p className="muted" aria-busy="true">{refusal ? refusal.message : "Loading the player…"}</p>
  const open = (dialog: string) => {
    player.send({ type: "field.change", field: "reason", value: "" })
    player.send({ type: "field.change", field: "dialog", value: dialog })
  }
  const p = detail.player
  return (
    <>
      <Link to="/players" className="muted">← Players</Link>
      <div className="spread">
        <h1>{p.name} <span className="muted">@{p.username}</span> <PlayerStatusBadge status={p.status} /></h1>
        <div className="row">
          {can("players.suspend") && p.status !== "pending" && (
            <button type="button" className={p.status === "active" ? "btn btn-bad" : "btn btn-ok"} onClick={() => open("status")}>{p.status === "active" ? "Suspend" : "Reactivate"}</button>
          )}
          {can("money.adjust") && <button type="button" className="btn btn-primary" onClick={() => open("adjust")}>Adjust balance</button>}
        </div>
      </div>
      <div className="muted">{p.mobileNo} · {p.role === Roles.CREDIT_PLAYER ? "credit player" : "player"} · joined {when(p.createdAt)} · <span className="mono">{p.id}</span></div>
      {refusal && !fields.dialog && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      <section className="grid-3" aria-label="Balances">
        {([["Main", detail.balances.main], ["Bonus", detail.balances.bonus], ["Exposure", detail.balances.exposure]] as const).map(([label, value]) => (
          <div key={label} className="card"><div className="muted">{label}</div><div className="figure">{rupees(value)}</div></div>
        ))}
      </section>
      {can("money.adjust") && <AdjustmentRequests playerId={p.id} player={player} />}
      <div className="grid-2">
        <Section title="Protection"><ProtectionState protection={detail.protection} /></Section>
        <Section title="Notes">
          {can("players.note") && (
            <form className="stack" aria-label="Add a note" onSubmit={(event) => (event.preventDefault(), player.send({ type: "command.run", command: "note" }))}>
              <label className="field"><span>Note</span><textarea className="input" rows={2} maxLength={2000} value={fields.note ?? ""} onChange={(event) => player.send({ type: "field.change", field: "note", value: event.target.value })} /></label>
              <div><button type="submit" className="btn" disabled={busy}>Add note</button></div>
            </form>
          )}
          {detail.notes.length === 0 ? <p className="muted">No notes.</p> : (
            <ul className="stack" style={{ margin: 0, paddingLeft: 18 }}>
              {detail.notes.map((note) => <li key={note.id}><span className="muted">{when(note.at)} {note.author}:</span> {note.body}</li>)}
            </ul>
          )}
        </Section>
      </div>
      <Section title="Sessions">
        <DataTable caption="Sessions" rows={detail.sessions} columns={SESSIONS} rowId={(row) => row.id} empty="Not signed in anywhere." />
        {can("players.suspend") && detail.sessions.length > 0 && (
          <div><button type="button" className="btn" disabled={busy} onClick={() => player.send({ type: "command.run", command: "endSessions" })}>End all sessions</button></div>
        )}
      </Section>
      <Section title="Statement (30 days)"><DataTable caption="Statement" rows={detail.statement} columns={STATEMENT} rowId={(row) => row._id} empty="No transactions." /></Section>
      <Section title="Open bets"><DataTable caption="Open bets" rows={detail.openBets} columns={BETS} rowId={(row) => row.id} empty="No open bets." /></Section>
      <Section title="Settled bets"><DataTable caption="Settled bets" rows={detail.settledBets} columns={BETS} rowId={(row) => row.id} empty="No settled bets." /></Section>
      <CasinoRounds playerId={p.id} />
      <div className="grid-2">
        <Section title="Deposits"><DataTable caption="Deposits" rows={detail.deposits} columns={DEPOSITS} rowId={(row) => row._id} empty="No deposits." /></Section>
        <Section title="Withdrawals"><DataTable caption="Withdrawals" rows={detail.withdrawals} columns={WITHDRAWALS} rowId={(row) => row._id} empty="No withdrawals." /></Section>
      </div>
      <Section title="Payout accounts"><DataTable caption="Payout accounts" rows={detail.accounts} columns={ACCOUNTS} rowId={(row) => row._id} empty="None added." /></Section>
      <PlayerDialog player={player} detail={detail} />
    </>
  )
}
