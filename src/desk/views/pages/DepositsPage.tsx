import { useSelector } from "@xstate/react"
import { useState } from "react"
import { DEPOSIT_REJECT_REASONS } from "../../../domain/staff.ts"
import type { DeskDeposit } from "../../../schema/desk/queues.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"
import { History, QueueActions, QueueFilters, QueueList, SHORTCUTS, StatusBadge, useQueueKeys } from "./QueuePage.tsx"

const LIST = columns<DeskDeposit>([
  { id: "at", header: "Requested", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> },
  { id: "player", header: "Player", cell: ({ row }) => <span>{row.original.player.name} <span className="muted">@{row.original.player.username}</span></span> },
  { id: "amount", header: "Amount", cell: ({ row }) => <span className="num">{rupees(row.original.amount)}</span> },
  {
    id: "ref",
    header: "Reference",
    cell: ({ row }) => (
      <span className="mono">
        {row.original.txnRef ?? (row.original.screenshot ? "screenshot" : "–")}
        {row.original.sameReference > 0 && <span className="badge badge-bad" title="This reference was used in other requests"> used {row.original.sameReference}×</span>}
      </span>
    )
  },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: "claim", header: "Worked by", cell: ({ row }) => row.original.claim?.by ?? row.original.decidedBy ?? "" }
])

const RECENT = columns<DeskDeposit>([
  { id: "at", header: "When", cell: ({ row }) => when(row.original.createdAt) },
  { id: "amount", header: "Amount", cell: ({ row }) => <span className="num">{rupees(row.original.amount)}</span> },
  { id: "ref", header: "Reference", cell: ({ row }) => <span className="mono">{row.original.txnRef ?? "–"}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} /> },
  { id: "by", header: "Decided by", cell: ({ row }) => row.original.decidedBy ?? "" }
])

const SAME = columns<DeskDeposit>([
  { id: "at", header: "When", cell: ({ row }) => when(row.original.createdAt) },
  { id: "player", header: "Player", cell: ({ row }) => `${row.original.player.name} (@${row.original.player.username})` },
  { id: "amount", header: "Amount", cell: ({ row }) => <span className="num">{rupees(row.original.amount)}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <StatusBadge status={row.original.status} /> }
])

/** The screenshot a player sent, with zoom. */
const Screenshot = ({ image }: { readonly image: string }) => {
  const [zoom, setZoom] = useState(1)
  return (
    <div className="stack">
      <div className="spread">
        <h3>Screenshot</h3>
        <div className="row" role="group" aria-label="Zoom">
          <button type="button" className="btn btn-small" onClick={() => setZoom((z) => Math.max(0.25, z / 1.5))} aria-label="Zoom out">−</button>
          <span className="muted">{Math.round(zoom * 100)}%</span>
          <button type="button" className="btn btn-small" onClick={() => setZoom((z) => Math.min(6, z * 1.5))} aria-label="Zoom in">+</button>
          <button type="button" className="btn btn-small" onClick={() => setZoom(1)}>Fit</button>
        </div>
      </div>
      <div className="shot">
        <img src={image} alt="The payment screenshot the player sent" style={zoom === 1 ? { maxWidth: "100%" } : { width: `${zoom * 100}%`, maxWidth: "none" }} />
      </div>
    </div>
  )
}

const DepositPane = ({ queue }: { readonly queue: NonNullable<ReturnType<typeof useDeskFlow<"deposits">>> }) => {
  const detail = useSelector(queue, (s) => s.context.detail)
  const loading = useSelector(queue, (s) => s.hasTag("loading-request"))
  const failed = useSelector(queue, (s) => s.hasTag("failed-request"))
  const can = useCan()
  if (!detail) return <aside className="card muted">{loading ? "Loading…" : failed ? "This request could not be loaded." : "Choose a request (or press j)."}</aside>
  const deposit = detail.deposit
  return (
    <aside className="card stack" aria-label="Deposit request">
      <div className="spread">
        <div className="figure">{rupees(deposit.amount)}</div>
        <StatusBadge status={deposit.status} />
      </div>
      <div>{deposit.player.name} <span className="muted">@{deposit.player.username} · {deposit.player.mobileNo}</span></div>
      <div className="muted">Requested {when(deposit.createdAt)} · paid to {deposit.paidTo.type === "upi" ? "UPI" : "bank"} {deposit.paidTo.accountNumber} ({deposit.paidTo.accountHolderName})</div>
      <div>Reference: <span className="mono">{deposit.txnRef ?? "none (screenshot only)"}</span></div>
      {detail.sameReference.length > 0 && (
        <div className="alert alert-bad" role="alert">
          <strong>This reference was used before</strong> in {detail.sameReference.length} other request{detail.sameReference.length === 1 ? "" : "s"}:
          <DataTable caption="Requests with the same reference" rows={detail.sameReference} columns={SAME} rowId={(row) => row._id} />
        </div>
      )}
      {deposit.status !== "pending" && <div className="muted">Decided by {deposit.decidedBy ?? "–"} at {when(deposit.decidedAt)}{deposit.remark ? `: ${deposit.remark}` : ""}</div>}
      <QueueActions queue={queue} kind="deposit" status={deposit.status} claim={deposit.claim} reasons={DEPOSIT_REJECT_REASONS} canDecide={can("deposits.decide")} />
      {detail.image && <Screenshot image={detail.image} />}
      <h3>The player's last deposits</h3>
      <DataTable caption="The player's last deposits" rows={detail.recent} columns={RECENT} rowId={(row) => row._id} empty="None before." />
      <History entries={detail.history} when={when} />
    </aside>
  )
}

/** Deposits: the live queue, the request shown beside it, keyboard shortcuts. */
export const DepositsPage = () => {
  const queue = useDeskFlow("deposits", { input: { kind: "deposit", query: { status: "pending" } } })
  useQueueKeys(queue)
  if (!queue) return null
  return (
    <>
      <div className="spread">
        <h1>Deposits</h1>
        <p className="muted">{SHORTCUTS.map(([key, what]) => <span key={key} className="nowrap"><kbd>{key}</kbd> {what} · </span>)}</p>
      </div>
      <QueueFilters queue={queue} />
      <div className="grid-2">
        <QueueList queue={queue} kind="deposit" columns={LIST} />
        <DepositPane queue={queue} />
      </div>
    </>
  )
}
