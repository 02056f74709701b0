import { useSelector } from "@xstate/react"
import { Route, Routes, useNavigate } from "react-router"
import { DEFAULT_PAGE } from "../../../schema/desk/common.ts"
import type { DeskPlayer } from "../../../schema/desk/players.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable, Pager } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"
import { AdjustmentRequests } from "./AdjustmentRequests.tsx"
import { PlayerPage, PlayerStatusBadge } from "./PlayerPage.tsx"

const COLUMNS = columns<DeskPlayer>([
  { id: "username", header: "Username", cell: ({ row }) => <span className="mono">{row.original.username}</span> },
  { id: "name", header: "Name", cell: ({ row }) => row.original.name },
  { id: "mobile", header: "Mobile", cell: ({ row }) => <span className="mono">{row.original.mobileNo}</span> },
  { id: "status", header: "Status", cell: ({ row }) => <PlayerStatusBadge status={row.original.status} /> },
  { id: "main", header: "Main balance", cell: ({ row }) => <span className="num">{rupees(row.original.main)}</span> },
  { id: "since", header: "Joined", cell: ({ row }) => <span className="nowrap">{when(row.original.createdAt)}</span> }
])

/** Players found by name, username, mobile number or id, a page at a time on the server; a row opens the player's page. */
const PlayerSearch = () => {
  const list = useDeskFlow("players", { input: { query: {} } })
  const navigate = useNavigate()
  const query = useSelector(list, (s) => s?.context.query) ?? {}
  const page = useSelector(list, (s) => s?.context.page)
  const pageNumber = useSelector(list, (s) => s?.context.cursors.length) ?? 1
  const loading = useSelector(list, (s) => s?.hasTag("loading")) ?? true
  const refusal = useSelector(list, (s) => s?.context.refusal)
  const can = useCan()
  if (!list || !page) return null
  const change = (field: string) => (event: { target: { value: string } }) => list.send({ type: "query.change", field, value: event.target.value })
  return (
    <>
      <h1>Players</h1>
      {can("money.adjust") && <AdjustmentRequests />}
      <form className="row" role="search" aria-label="Find players" onSubmit={(event) => event.preventDefault()}>
        <label className="field"><span>Name, username, mobile or id</span><input className="input" type="search" size={32} value={query.q ?? ""} onChange={change("q")} /></label>
        <label className="field"><span>Status</span>
          <select className="input" value={query.status ?? ""} onChange={change("status")}>
            <option value="">Any</option>
            <option value="active">Active</option>
            <option value="suspended">Suspended</option>
            <option value="pending">Not verified</option>
          </select>
        </label>
      </form>
      <section className="stack" aria-busy={loading}>
        <DataTable caption="Players" rows={page.items} columns={COLUMNS} rowId={(row) => row.id} onChoose={(row) => navigate(`/players/${row.id}`)} empty={loading ? "Loading…" : "No players match."} />
        <Pager page={pageNumber} total={page.total} size={DEFAULT_PAGE} hasNext={page.next !== null} onPrevious={() => list.send({ type: "page.previous" })} onNext={() => list.send({ type: "page.next" })} />
        {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      </section>
    </>
  )
}

/** The players screen: the search, and a player's page under it. */
export const PlayersPage = () => (
  <Routes>
    <Route index element={<PlayerSearch />} />
    <Route path=":id" element={<PlayerPage />} />
  </Routes>
)
