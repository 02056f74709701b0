import { useSelector } from "@xstate/react"
import { useSearchParams } from "react-router"
import { bandLabel } from "../../../domain/risk.ts"
import { DEFAULT_PAGE } from "../../../schema/desk/common.ts"
import type { ExposedPlayer, MarketApproval, MarketRisk, RiskMarket } from "../../../schema/desk/markets.ts"
import { EVERY_RECORD } from "../../machines/record.machine.ts"
import { useCan, useDeskFlow } from "../flows.ts"
import { columns, DataTable, Pager } from "../widgets/DataTable.tsx"
import { rupees, when } from "../widgets/format.ts"

type RecordFlow = NonNullable<ReturnType<typeof useDeskFlow<"risk">>> | NonNullable<ReturnType<typeof useDeskFlow<"market">>>

/** Sends a command of a record flow with its fields set first. */
const command = (flow: RecordFlow, name: string, fields: Readonly<Record<string, string>> = {}) => {
  for (const [field, value] of Object.entries(fields)) flow.send({ type: "field.change", field, value })
  flow.send({ type: "command.run", command: name })
}

/** The house's result: green when it wins, red when it loses. */
const House = ({ value }: { readonly value: number }) => <span className={`num ${value < 0 ? "loss" : value > 0 ? "gain" : ""}`}>{rupees(value)}</span>

const requestText = (approval: MarketApproval) => (approval.kind === "settle" ? `Settle: ${approval.result}` : `Void: ${approval.reason}`)

/** A request waiting for a second approver, with what this staff member may do about it. */
const ApprovalActions = ({ flow, approval }: { readonly flow: RecordFlow; readonly approval: MarketApproval }) => {
  const can = useCan()
  if (!can("markets.settle")) return <span className="muted">waiting</span>
  if (approval.mine) return <button type="button" className="btn btn-small" onClick={() => command(flow, "decline", { approval: approval._id })}>Withdraw</button>
  return (
    <span className="row">
      <button type="button" className="btn btn-small btn-ok" onClick={() => command(flow, "approve", { approval: approval._id })}>Approve</button>
      <button type="button" className="btn btn-small btn-bad" onClick={() => command(flow, "decline", { approval: approval._id })}>Decline</button>
    </span>
  )
}

const PLAYERS = columns<ExposedPlayer>([
  { id: "player", header: "Player", cell: ({ row }) => <span>{row.original.player.name} <span className="muted">@{row.original.player.username}</span></span> },
  { id: "exposure", header: "Exposure", cell: ({ row }) => <span className="num">{rupees(row.original.exposure)}</span> },
  { id: "markets", header: "Markets", cell: ({ row }) => <span className="num">{row.original.markets}</span> }
])

/** Every market still to settle at once: total liability, the requests waiting for four eyes, the most exposed players. */
const Overview = ({ choose }: { readonly choose: (marketId: string) => void }) => {
  const flow = useDeskFlow("risk", { input: { id: EVERY_RECORD } })
  const summary = useSelector(flow, (s) => s?.context.record)
  const refusal = useSelector(flow, (s) => s?.context.refusal)
  if (!flow || !summary) return <section className="card muted" aria-busy="true">Loading…</section>
  const approvals = columns<MarketApproval>([
    { id: "market", header: "Market", cell: ({ row }) => <button type="button" className="btn btn-small" onClick={() => choose(row.original.marketId)}>{row.original.marketId}</button> },
    { id: "what", header: "Asked", cell: ({ row }) => requestText(row.original) },
    { id: "liability", header: "Liability", cell: ({ row }) => <span className="num">{rupees(row.original.liability)}</span> },
    { id: "by", header: "By", cell: ({ row }) => <span className="nowrap">{row.original.requestedBy}, {when(row.original.requestedAt)}</span> },
    { id: "do", header: "", cell: ({ row }) => <ApprovalActions flow={flow} approval={row.original} /> }
  ])
  return (
    <section className="stack" aria-label="Risk overview">
      <div className="grid-3">
        <div className="card"><h3>Total liability</h3><div className="figure">{rupees(summary.liability)}</div></div>
        <div className="card"><h3>Markets with bets</h3><div className="figure">{summary.markets}</div><span className="muted">{summary.openBets} open bets</span></div>
        <div className="card"><h3>Four eyes above</h3><div className="figure">{rupees(summary.threshold)}</div><span className="muted">of liability</span></div>
      </div>
      <div className="grid-2">
        <div className="stack">
          <h2>Waiting for a second approver</h2>
          <DataTable caption="Waiting for a second approver" rows={summary.approvals} columns={approvals} rowId={(row) => row._id} empty="Nothing waiting." />
          {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
        </div>
        <div className="stack">
          <h2>Most exposed players</h2>
          <DataTable caption="Most exposed players" rows={summary.topPlayers} columns={PLAYERS} rowId={(row) => row.player.id} empty="No open bets." />
        </div>
      </div>
    </section>
  )
}

const MARKETS = columns<RiskMarket>([
  { id: "event", header: "Event", cell: ({ row }) => <span>{row.original.event.name} <span className="muted">{row.original.event.sport} · {when(row.original.event.startsAt)}</span></span> },
  { id: "market", header: "Market", cell: ({ row }) => row.original.name },
  { id: "status", header: "Status", cell: ({ row }) => <span className="badge">{row.original.bookStatus ?? row.original.status}</span> },
  { id: "bets", header: "Bets", cell: ({ row }) => <span className="num">{row.original.openBets}</span> },
  { id: "liability", header: "Liability", cell: ({ row }) => <span className="num">{rupees(row.original.liability)}</span> },
  { id: "waiting", header: "", cell: ({ row }) => row.original.approval ? <span className="badge badge-pending">four eyes</span> : null }
])

const MarketList = ({ selected, choose }: { readonly selected: string | undefined; readonly choose: (marketId: string) => void }) => {
  const list = useDeskFlow("markets", { input: { query: {} } })
  const page = useSelector(list, (s) => s?.context.page)
  const query = useSelector(list, (s) => s?.context.query) ?? {}
  const pageNumber = useSelector(list, (s) => s?.context.cursors.length) ?? 1
  const loading = useSelector(list, (s) => s?.hasTag("loading")) ?? true
  if (!list || !page) return null
  const change = (field: string) => (event: { target: { value: string } }) => list.send({ type: "query.change", field, value: event.target.value })
  return (
    <section className="stack" aria-label="Markets" aria-busy={loading}>
      <form className="row" aria-label="Find markets" onSubmit={(event) => event.preventDefault()}>
        <label className="field"><span>Event or market</span><input className="input" value={query.search ?? ""} onChange={change("search")} /></label>
        <label className="field"><span>Show</span>
          <select className="input" value={query.bets ?? "with"} onChange={change("bets")}>
            <option value="with">With open bets</option>
            <option value="all">All still to settle</option>
          </select>
        </label>
      </form>
      <DataTable caption="Markets still to settle" rows={page.items} columns={MARKETS} rowId={(row) => row.marketId} selected={selected} onChoose={(row) => choose(row.marketId)} empty={loading ? "Loading…" : "No markets."} />
      <Pager page={pageNumber} total={page.total} size={DEFAULT_PAGE} hasNext={page.next !== null} onPrevious={() => list.send({ type: "page.previous" })} onNext={() => list.send({ type: "page.next" })} />
    </section>
  )
}

/** One market: the house's book, its players, and suspend, price, settle and void for the roles that may. */
const MarketPane = ({ marketId }: { readonly marketId: string }) => {
  const flow = useDeskFlow("market", { id: `market:${marketId}`, input: { id: marketId } })
  const risk: MarketRisk | undefined = useSelector(flow, (s) => s?.context.record)
  const fields = useSelector(flow, (s) => s?.context.fields) ?? {}
  const refusal = useSelector(flow, (s) => s?.context.refusal)
  const busy = useSelector(flow, (s) => s?.hasTag("busy")) ?? false
  const failed = useSelector(flow, (s) => s?.hasTag("failed")) ?? false
  const can = useCan()
  if (!flow || !risk) return <aside className="card muted" aria-busy={!failed}>{failed ? refusal?.message : "Loading…"}</aside>
  const { market } = risk
  const set = (field: string) => (event: { target: { value: string } }) => flow.send({ type: "field.change", field, value: event.target.value })
  const fancy = market.marketType === "FANCY"
  const suspended = (market.bookStatus ?? market.status) === "SUSPENDED"
  return (
    <aside className="card stack" aria-label="Market">
      <div className="spread">
        <div>
          <h2>{market.name}</h2>
          <div className="muted">{market.event.name} · {market.event.sport} · {when(market.event.startsAt)}</div>
        </div>
        <span className="badge">{market.bookStatus ?? market.status}</span>
      </div>
      <div className="grid-3">
        <div><h3>Liability</h3><div className="figure">{rupees(market.liability)}</div></div>
        <div><h3>Open bets</h3><div className="figure">{market.openBets}</div><span className="muted">{market.players} players</span></div>
        <div><h3>Four eyes above</h3><div className="figure">{rupees(risk.threshold)}</div></div>
      </div>
      {market.approval && (
        <div className="alert alert-warn spread" role="status">
          <span>{market.approval.requestedBy} asked: {requestText(market.approval)} (liability {rupees(market.approval.liability)})</span>
          <ApprovalActions flow={flow} approval={market.approval} />
        </div>
      )}
      <h3>The house's book</h3>
      {fancy
        ? (
          <table className="data" aria-label="The house's book by result">
            <thead><tr><th scope="col">Runs</th><th scope="col">House</th></tr></thead>
            <tbody>
              {risk.bands.length === 0 && <tr><td colSpan={2} className="muted">No open bets.</td></tr>}
              {risk.bands.map((band) => <tr key={band.from}><td>{bandLabel(band)}</td><td><House value={band.house} /></td></tr>)}
            </tbody>
          </table>
        )
        : (
          <table className="data" aria-label="The house's book by runner">
            <thead><tr><th scope="col">Runner</th><th scope="col">Back</th><th scope="col">Lay</th><th scope="col">House if it wins</th></tr></thead>
            <tbody>
              {risk.runners.map((runner) => (
                <tr key={runner.selectionId}>
                  <td>{runner.name} <span className="muted mono">{runner.selectionId}</span></td>
                  <td className="num">{runner.back ?? "–"}</td>
                  <td className="num">{runner.lay ?? "–"}</td>
                  <td><House value={runner.house} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      {risk.line && <div className="muted">Line now: No {risk.line.no ?? "–"} · Yes {risk.line.yes ?? "–"}</div>}
      <h3>Players</h3>
      <DataTable caption="Players on this market" rows={risk.players.map((p) => ({ ...p, markets: p.bets }))} columns={PLAYERS.map((c) => (c.id === "markets" ? { ...c, header: "Bets" } : c))} rowId={(row) => row.player.id} empty="No open bets." />
      {can("markets.manage") && (
        <form className="stack" aria-label="Prices" onSubmit={(event) => { event.preventDefault(); flow.send({ type: "command.run", command: "price" }) }}>
          <div className="row">
            <button type="button" className="btn" disabled={busy} onClick={() => command(flow, suspended ? "resume" : "suspend")}>{suspended ? "Resume" : "Suspend"}</button>
            {!fancy && (
              <>
                <label className="field"><span>Runner</span>
                  <select className="input" value={fields.selection ?? ""} onChange={set("selection")}>
                    <option value="">Choose…</option>
                    {risk.runners.map((runner) => <option key={runner.selectionId} value={runner.selectionId}>{runner.name}</option>)}
                  </select>
                </label>
                <label className="field"><span>Back</span><input className="input" inputMode="decimal" value={fields.back ?? ""} onChange={set("back")} /></label>
                <label className="field"><span>Lay</span><input className="input" inputMode="decimal" value={fields.lay ?? ""} onChange={set("lay")} /></label>
                <button type="submit" className="btn" disabled={busy}>Set price</button>
              </>
            )}
          </div>
        </form>
      )}
      {can("markets.settle") && !market.approval && (
        <div className="grid-2">
          <form className="stack" aria-label="Settle" onSubmit={(event) => { event.preventDefault(); flow.send({ type: "command.run", command: "settle" }) }}>
            {fancy
              ? <label className="field"><span>Result (runs)</span><input className="input" inputMode="numeric" value={fields.result ?? ""} onChange={set("result")} /></label>
              : (
                <label className="field"><span>Winner</span>
                  <select className="input" value={fields.result ?? ""} onChange={set("result")}>
                    <option value="">Choose…</option>
                    {risk.runners.map((runner) => <option key={runner.selectionId} value={runner.selectionId}>{runner.name}</option>)}
                  </select>
                </label>
              )}
            <button type="submit" className="btn btn-primary" disabled={busy}>Settle</button>
          </form>
          <form className="stack" aria-label="Void" onSubmit={(event) => { event.preventDefault(); flow.send({ type: "command.run", command: "void" }) }}>
            <label className="field"><span>Reason</span><input className="input" value={fields.reason ?? ""} onChange={set("reason")} /></label>
            <button type="submit" className="btn btn-bad" disabled={busy}>Void</button>
          </form>
        </div>
      )}
      {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
    </aside>
  )
}

/** Markets and risk: the house's position, the markets still to settle, one market's book beside them (chosen in the address: ?market=). */
export const MarketsPage = () => {
  const [params, setParams] = useSearchParams()
  const selected = params.get("market") ?? undefined
  const choose = (marketId: string) => setParams({ market: marketId })
  return (
    <>
      <h1>Markets and risk</h1>
      <Overview choose={choose} />
      <div className="grid-2">
        <MarketList selected={selected} choose={choose} />
        {selected ? <MarketPane key={selected} marketId={selected} /> : <aside className="card muted">Choose a market to see its book.</aside>}
      </div>
    </>
  )
}
