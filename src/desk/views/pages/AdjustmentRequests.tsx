import { useSelector } from "@xstate/react"
import { Link } from "react-router"
import type { AdjustmentApproval } from "../../../schema/desk/players.ts"
import type { DeskFlowRef } from "../../machines/flows.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"

/** Decides a request through the player's record flow: the request's id is its field `approval`. */
const decide = (player: DeskFlowRef<"player">, command: "approve" | "decline", approval: string) => {
  player.send({ type: "field.change", field: "approval", value: approval })
  player.send({ type: "command.run", command })
}

/**
 * Manual adjustments waiting for a second approver (four eyes): every one
 * (the players screen, each linking to its player), or one player's with
 * what this staff member may do: approve or decline another's, withdraw their own.
 */
export const AdjustmentRequests = ({ playerId, player }: { readonly playerId?: string; readonly player?: DeskFlowRef<"player"> }) => {
  const can = useCan()
  const list = useDeskFlow("adjustments", { id: `adjustments:${playerId ?? "all"}`, input: { query: playerId ? { player: playerId } : {} } })
  const items = useSelector(list, (s) => s?.context.page.items) ?? []
  const busy = useSelector(player, (s) => s?.hasTag("busy")) ?? false
  if (!list || items.length === 0) return null
  const COLUMNS = columns<AdjustmentApproval>([
    ...(playerId ? [] : [{ id: "player", header: "Player", cell: ({ row }: { row: { original: AdjustmentApproval } }) => <Link to={`/players/${row.original.player.id}`}>{row.original.player.name} <span className="muted">@{row.original.player.username}</span></Link> }]),
    { id: "what", header: "Asked", cell: ({ row }) => <span>{row.original.direction} {rupees(row.original.amount)} <span className="muted">{row.original.reason}</span></span> },
    { id: "by", header: "By", cell: ({ row }) => <span className="nowrap">{row.original.requestedBy}, {when(row.original.requestedAt)}</span> },
    {
      id: "do",
      header: "",
      cell: ({ row }) => {
        const request = row.original
        if (!player || !can("money.adjust")) return <span className="muted">waiting</span>
        if (request.mine) return <button type="button" className="btn btn-small" disabled={busy} onClick={() => decide(player, "decline", request._id)}>Withdraw</button>
        return (
          <span className="row">
            <button type="button" className="btn btn-small btn-ok" disabled={busy} onClick={() => decide(player, "approve", request._id)}>Approve</button>
            <button type="button" className="btn btn-small btn-bad" disabled={busy} onClick={() => decide(player, "decline", request._id)}>Decline</button>
          </span>
        )
      }
    }
  ])
  return (
    <section className="stack" aria-label="Adjustments waiting for a second approver">
      <h2>Waiting for a second approver</h2>
      <DataTable caption="Adjustments waiting for a second approver" rows={items} columns={COLUMNS} rowId={(row) => row._id} empty="None." />
    </section>
  )
}
