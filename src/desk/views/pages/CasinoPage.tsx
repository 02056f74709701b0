import { useSelector } from "@xstate/react"
import type { AdminCasinoGame, CasinoProvider } from "../../../schema/casino.ts"
import type { DeskFlowRef } from "../../machines/flows.ts"
import { useDeskFlow } from "../flows.ts"
import { columns, DataTable } from "../widgets/DataTable.tsx"

type CasinoRef = DeskFlowRef<"casino">

/** Switches a provider (`code`) or a game (`game`) on or off through the casino record. */
const toggle = (flow: CasinoRef, command: "provider" | "game", field: "code" | "game", id: string, on: boolean) => {
  flow.send({ type: "field.change", field, value: id })
  flow.send({ type: "field.change", field: "on", value: String(on) })
  flow.send({ type: "command.run", command })
}

const OnOff = ({ on, label, busy, onChange }: { readonly on: boolean; readonly label: string; readonly busy: boolean; readonly onChange: (on: boolean) => void }) => (
  <label className="row nowrap">
    <input type="checkbox" role="switch" checked={on} disabled={busy} aria-label={label} onChange={(event) => onChange(event.target.checked)} />
    <span className={`badge ${on ? "badge-ok" : "badge-bad"}`}>{on ? "on" : "off"}</span>
  </label>
)

/**
 * The casino (`casino.manage`): providers and games switched on or off. A game
 * off, or its provider off, leaves the player's lobby and its launch is refused
 * (server/casino/Casino.ts); every switch is audited.
 */
export const CasinoPage = () => {
  const flow = useDeskFlow("casino", { input: { id: "casino" } })
  const catalogue = useSelector(flow, (s) => s?.context.record)
  const busy = useSelector(flow, (s) => s?.hasTag("busy")) ?? false
  const refusal = useSelector(flow, (s) => s?.context.refusal)
  if (!flow) return null
  if (!catalogue) return <p className="muted" aria-busy="true">{refusal ? refusal.message : "Loading the casino…"}</p>
  const providers = columns<CasinoProvider>([
    { id: "name", header: "Provider", cell: ({ row }) => <span>{row.original.name} <span className="muted mono">{row.original.code}</span></span> },
    { id: "launch", header: "Launch", cell: ({ row }) => <span className="muted">{row.original.launchUrl ? "connected" : "no launch URL"}</span> },
    { id: "on", header: "On", cell: ({ row }) => <OnOff on={row.original.active} label={`${row.original.name} on`} busy={busy} onChange={(on) => toggle(flow, "provider", "code", row.original.code, on)} /> }
  ])
  const games = columns<AdminCasinoGame>([
    { id: "title", header: "Game", cell: ({ row }) => row.original.title },
    { id: "provider", header: "Provider", cell: ({ row }) => row.original.provider_name },
    { id: "kind", header: "Kind", cell: ({ row }) => <span className="muted">{row.original.kind} · {row.original.game_category}</span> },
    { id: "on", header: "On", cell: ({ row }) => <OnOff on={row.original.enabled} label={`${row.original.title} on`} busy={busy} onChange={(on) => toggle(flow, "game", "game", row.original._id, on)} /> }
  ])
  return (
    <>
      <h1>Casino</h1>
      <p className="muted">A game switched off, or whose provider is off, leaves the lobby and cannot be launched.</p>
      {refusal && <p className="alert alert-bad" role="alert">{refusal.message}</p>}
      <section className="stack" aria-label="Providers">
        <h2>Providers</h2>
        <DataTable caption="Providers" rows={catalogue.providers} columns={providers} rowId={(row) => row.code} empty="No providers." />
      </section>
      <section className="stack" aria-label="Games">
        <h2>Games</h2>
        <DataTable caption="Games" rows={catalogue.games} columns={games} rowId={(row) => row._id} empty="No games." />
      </section>
    </>
  )
}
