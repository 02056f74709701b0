import { useSelector } from "@xstate/react"
import { WITHDRAWAL_REJECT_REASONS } from "../../../domain/staff.ts"
import type { DeskWithdrawal } from "../../../schema/desk/queues.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"
import { History, QueueActions, QueueFilters, QueueList, SHORTCUTS, StatusBadge, useQueueKeys } from "./QueuePage.tsx"

const accountLine = (account: DeskWithdrawal["account"]) =>
  account.type === "upi" ? `UPI ${account.accountNumber}` : `${account.bankName ?? "Bank"} ${account.accountNumber}`

const LIST = columns<DeskWithdrawal>([
  { id: "at", header: "Requested", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "player", header: "Player", cell: ({ row }) => <span>{row.original.player.name} <span className="muted">@{row.original.player.username}</span></span> },
  { id: "amount", header: "Amount", cell: ({ row }) => <span className="num">{rupees(row.original.amount)}</span> },
  { id: "to", header: "To", cell: ({ row }) => <span className="mono">{accountLine(row.original.account)}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} kind="withdrawal" /> },
  { id: "claim", header: "Worked by", cell: ({ row }) => row.original.claim?.by ?? row.original.decidedBy ?? "" }
])

const RECENT = columns<DeskWithdrawal>([
  { id: "at", header: "When", cell: ({ row }) => when(row.original.createdAt) },
  { id: "amount", header: "Amount", cell: ({ row }) => <span className="num">{rupees(row.original.amount)}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} kind="withdrawal" /> },
  { id: "ref", header: "Bank reference", cell: ({ row }) => <span className="mono">{row.original.payoutReference ?? ""}</span> }
])

/** A line of the payout account with a button that copies it (for the bank's payout form). */
const Copyable = ({ label, value }: { readonly label: string; readonly value: string }) => (
  <div className="spread">
    <span><span className="muted">{label}: </span><span className="mono">{value}</span></span>
    <button type="button" className="btn btn-small" aria-label={`Copy ${label}`} onClick={() => void navigator.clipboard?.writeText(value)}>Copy</button>
  </div>
)

const WithdrawalPane = ({ queue }: { readonly queue: NonNullable<ReturnType<typeof useDeskFlow<"withdrawals">>> }) => {
  const detail = useSelector(queue, (s) => s.context.detail)
  const loading = useSelector(queue, (s) => s.hasTag("loading-request"))
  const can = useCan()
  if (!detail) return <aside className="card muted">{loading ? "Loading…" : "Choose a request (or press j)."}</aside>
  const { withdrawal, sinceLast } = detail
  const account = withdrawal.account
  return (
    <aside className="card stack" aria-label="Withdrawal request">
      <div className="spread">
        <div className="figure">{rupees(withdrawal.amount)}</div>
        <StatusBadge status={withdrawal.status} kind="withdrawal" />
      </div>
      <div>{withdrawal.player.name} <span className="muted">@{withdrawal.player.username} · {withdrawal.player.mobileNo}</span></div>
      <div className="muted">Requested {when(withdrawal.createdAt)}</div>
      <div className="card stack" aria-label="Payout account">
        <h3>Pay to</h3>
        <Copyable label="Name" value={account.accountHolderName} />
        <Copyable label={account.type === "upi" ? "UPI id" : "Account number"} value={account.accountNumber} />
        {account.ifscCode && <Copyable label="IFSC" value={account.ifscCode} />}
        {account.bankName && <div className="muted">{account.bankName}{account.accountType ? `, ${account.accountType}` : ""}</div>}
        <Copyable label="Amount" value={withdrawal.amount.toFixed(2)} />
      </div>
      <div className="grid-3">
        <div><h3>Since</h3>{sinceLast.since ? when(sinceLast.since) : "first withdrawal"}</div>
        <div><h3>Deposited</h3><span className="num">{rupees(sinceLast.deposited)}</span></div>
        <div><h3>Wagered</h3><span className="num">{rupees(sinceLast.wagered)}</span></div>
      </div>
      {sinceLast.wagered < sinceLast.deposited && <p className="alert alert-warn">The player wagered less than they deposited since the last payout.</p>}
      {withdrawal.status !== "pending" && <div className="muted">Decided by {withdrawal.decidedBy ?? "–"} at {when(withdrawal.decidedAt)}{withdrawal.payoutReference ? `, bank reference ${withdrawal.payoutReference}` : ""}{withdrawal.remark ? `: ${withdrawal.remark}` : ""}</div>}
      <QueueActions queue={queue} kind="withdrawal" status={withdrawal.status} claim={withdrawal.claim} reasons={WITHDRAWAL_REJECT_REASONS} canDecide={can("withdrawals.decide")} />
      <h3>The player's last withdrawals</h3>
      <DataTable caption="The player's last withdrawals" rows={detail.recent} columns={RECENT} rowId={(row) => row._id} empty="None before." />
      <History entries={detail.history} when={when} />
    </aside>
  )
}

/** Withdrawals: the live queue; pay from the account shown, then mark paid with the bank's reference. */
export const WithdrawalsPage = () => {
  const queue = useDeskFlow("withdrawals", { input: { kind: "withdrawal", query: { status: "pending" } } })
  useQueueKeys(queue)
  if (!queue) return null
  return (
    <>
      <div className="spread">
        <h1>Withdrawals</h1>
        <p className="muted">{SHORTCUTS.map(([key, what]) => <span key={key} className="nowrap"><kbd>{key}</kbd> {what} · </span>)}</p>
      </div>
      <QueueFilters queue={queue} />
      <div className="grid-2">
        <QueueList queue={queue} kind="withdrawal" columns={LIST} />
        <WithdrawalPane queue={queue} />
      </div>
    </>
  )
}
