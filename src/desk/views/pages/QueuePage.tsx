import { useSelector } from "@xstate/react"
import { type ReactNode, useEffect } from "react"
import { DEFAULT_PAGE } from "../../../schema/desk/common.ts"
import type { QueueEvent, QueueForm, QueueKind } from "../../machines/queue.machine.ts"
import type { DeskFlowRef } from "../../machines/flows.ts"
import { type Columns, DataTable, Pager } from "../widgets/DataTable.tsx"

type QueueRef = DeskFlowRef<"deposits"> | DeskFlowRef<"withdrawals">

/** The keys staff use all day: next and previous request, claim, approve (or pay), reject, cancel. */
export const SHORTCUTS = [
  ["j / ↓", "next request"],
  ["k / ↑", "previous request"],
  ["c", "claim"],
  ["a", "approve (withdrawals: mark paid)"],
  ["r", "reject"],
  ["Esc", "cancel"]
] as const

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))

/** Keyboard shortcuts of a queue, sent as its events (never while typing in a field). */
export const useQueueKeys = (queue: QueueRef | undefined) => {
  useEffect(() => {
    if (!queue) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") return queue.send({ type: "form.cancel" })
      if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || document.querySelector("[role=dialog]")) return
      const events: Record<string, QueueEvent> = {
        j: { type: "queue.next" },
        ArrowDown: { type: "queue.next" },
        k: { type: "queue.previous" },
        ArrowUp: { type: "queue.previous" },
        c: { type: "request.claim" },
        a: { type: "request.approve" },
        r: { type: "reject.start" }
      }
      const send = events[event.key]
      if (!send) return
      event.preventDefault()
      queue.send(send)
    }
    addEventListener("keydown", onKey)
    return () => removeEventListener("keydown", onKey)
  }, [queue])
}

/** The filters of a queue: status, player, days, amounts (each a query field of the machine). */
export const QueueFilters = ({ queue }: { readonly queue: QueueRef }) => {
  const query = useSelector(queue, (s) => s.context.query)
  const change = (field: string) => (event: { target: { value: string } }) => queue.send({ type: "query.change", field, value: event.target.value })
  return (
    <form className="row" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <label className="field"><span>Status</span>
        <select className="input" value={query.status ?? "pending"} onChange={change("status")}>
          <option value="pending">Pending</option>
          <option value="approved">Approved</option>
          <option value="rejected">Rejected</option>
          <option value="all">All</option>
        </select>
      </label>
      <label className="field"><span>Player (name, username, mobile or id)</span><input className="input" value={query.player ?? ""} onChange={change("player")} /></label>
      <label className="field"><span>From</span><input className="input" type="date" value={query.start_date ?? ""} onChange={change("start_date")} /></label>
      <label className="field"><span>To</span><input className="input" type="date" value={query.end_date ?? ""} onChange={change("end_date")} /></label>
      <label className="field"><span>Min ₹</span><input className="input" inputMode="decimal" size={8} value={query.min ?? ""} onChange={change("min")} /></label>
      <label className="field"><span>Max ₹</span><input className="input" inputMode="decimal" size={8} value={query.max ?? ""} onChange={change("max")} /></label>
    </form>
  )
}

/** The list of a queue with its pages; a click (or Enter) shows the request. */
export const QueueList = <Row extends { readonly _id: string; readonly status: string }>(props: { readonly queue: QueueRef; readonly kind: QueueKind; readonly columns: Columns<Row> }) => {
  const { queue } = props
  // The queue's rows are the rows of its kind (deposits or withdrawals), as the columns given.
  const page = useSelector(queue, (s) => s.context.page) as unknown as { readonly items: ReadonlyArray<Row>; readonly next: string | null; readonly total: number }
  const pageNumber = useSelector(queue, (s) => s.context.cursors.length)
  const selected = useSelector(queue, (s) => s.context.selected)
  const loading = useSelector(queue, (s) => s.hasTag("loading"))
  return (
    <section className="stack" aria-busy={loading}>
      <DataTable
        caption={`${props.kind === "deposit" ? "Deposit" : "Withdrawal"} requests`}
        rows={page.items}
        columns={props.columns}
        rowId={(row) => row._id}
        selected={selected}
        onChoose={(row) => queue.send({ type: "request.select", id: row._id })}
        empty={loading ? "Loading…" : "No requests match."}
      />
      <Pager page={pageNumber} total={page.total} size={DEFAULT_PAGE} hasNext={page.next !== null} onPrevious={() => queue.send({ type: "page.previous" })} onNext={() => queue.send({ type: "page.next" })} />
    </section>
  )
}

/** The actions on the request shown: claim or let go, approve (pay), reject with a reason and a note. */
export const QueueActions = (props: {
  readonly queue: QueueRef
  readonly kind: QueueKind
  readonly status: string
  readonly claim: { readonly by: string; readonly mine: boolean } | null
  readonly reasons: ReadonlyArray<string>
  readonly canDecide: boolean
}) => {
  const { queue, kind } = props
  const state = useSelector(queue, (s) => (s.hasTag("rejecting") ? "rejecting" : s.hasTag("approving") ? "approving" : s.hasTag("busy") ? "busy" : "idle"))
  const form = useSelector(queue, (s) => s.context.form)
  const refusal = useSelector(queue, (s) => s.context.refusal)
  const change = (field: keyof QueueForm) => (event: { target: { value: string } }) => queue.send({ type: "field.change", field, value: event.target.value })
  const pending = props.status === "pending"
  let body: ReactNode = null
  if (!props.canDecide) body = <p className="muted">Your role may look, not decide.</p>
  else if (!pending) body = null
  else if (state === "rejecting") {
    body = (
      <form className="stack" aria-label="Reject" onSubmit={(event) => (event.preventDefault(), queue.send({ type: "form.confirm" }))}>
        <label className="field"><span>Reason</span>
          <select className="input" value={form.reason} onChange={change("reason")} autoFocus>
            <option value="">Choose a reason…</option>
            {props.reasons.map((reason) => <option key={reason} value={reason}>{reason}</option>)}
          </select>
        </label>
        <label className="field"><span>Note for the player (optional)</span><textarea className="input" rows={2} maxLength={150} value={form.note} onChange={change("note")} /></label>
        <div className="row">
          <button type="submit" className="btn btn-bad">Reject</button>
          <button type="button" className="btn" onClick={() => queue.send({ type: "form.cancel" })}>Cancel</button>
        </div>
      </form>
    )
  } else if (state === "approving") {
    body = (
      <form className="stack" aria-label="Mark paid" onSubmit={(event) => (event.preventDefault(), queue.send({ type: "form.confirm" }))}>
        <label className="field"><span>Bank's reference of the payout (UTR)</span><input className="input mono" value={form.reference} maxLength={64} onChange={change("reference")} autoFocus /></label>
        <div className="row">
          <button type="submit" className="btn btn-ok">Mark paid</button>
          <button type="button" className="btn" onClick={() => queue.send({ type: "form.cancel" })}>Cancel</button>
        </div>
      </form>
    )
  } else {
    const heldByOther = props.claim !== null && !props.claim.mine
    body = (
      <div className="row">
        {props.claim?.mine
          ? <button type="button" className="btn" disabled={state === "busy"} onClick={() => queue.send({ type: "request.release" })}>Let go</button>
          : <button type="button" className="btn" disabled={state === "busy" || heldByOther} onClick={() => queue.send({ type: "request.claim" })}>Claim</button>}
        <button type="button" className="btn btn-ok" disabled={state === "busy" || heldByOther} onClick={() => queue.send({ type: "request.approve" })}>
          {kind === "deposit" ? "Approve" : "Mark paid"}
        </button>
        <button type="button" className="btn btn-bad" disabled={state === "busy" || heldByOther} onClick={() => queue.send({ type: "reject.start" })}>Reject</button>
      </div>
    )
  }
  return (
    <div className="stack">
      {props.claim && <p className={`alert ${props.claim.mine ? "alert-ok" : "alert-warn"}`}>{props.claim.mine ? "You are working on this request." : `${props.claim.by} is working on this request.`}</p>}
      {body}
      {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
    </div>
  )
}

export const StatusBadge = ({ status, kind }: { readonly status: string; readonly kind?: QueueKind }) => (
  <span className={`badge badge-${status}`}>{status === "approved" && kind === "withdrawal" ? "paid" : status}</span>
)

/** What the desk did to a request: claims and decisions, with who and when. */
export const History = ({ entries, when }: { readonly entries: ReadonlyArray<{ readonly id: string; readonly at: string; readonly actor: string; readonly action: string }>; readonly when: (iso: string) => string }) => (
  <div className="stack">
    <h3>History</h3>
    {entries.length === 0 ? <p className="muted">Nobody has worked it yet.</p> : (
      <ol className="stack" style={{ margin: 0, paddingLeft: 18 }}>
        {entries.map((entry) => <li key={entry.id}><span className="muted">{when(entry.at)}</span> {entry.actor}: {entry.action.split(".").slice(1).join(" ")}</li>)}
      </ol>
    )}
  </div>
)
