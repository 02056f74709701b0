import { useSelector } from "@xstate/react"
import type { Lobby } from "../../domain/casino.ts"
import { addRupees, formatAmount } from "../../domain/money.ts"
import { indiaDay } from "../../domain/ranges.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { useFlow } from "../flows.ts"

const PROVIDERS = [
  ["all", "All providers"],
  ["khel", "Khel Originals"],
  ["ezugi", "Ezugi"],
  ["evolution", "Evolution"],
  ["sa", "SA Gaming"]
] as const

const STATUS = { open: "In play", settled: "Settled", cancelled: "Cancelled" } as const

const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false })

const CasinoBetsView = ({ bets }: { bets: FlowRef<"casinoBets"> }) => {
  const query = useSelector(bets, (s) => s.context.query)
  const rows = useSelector(bets, (s) => s.context.bets)
  const loading = useSelector(bets, (s) => s.hasTag("loading"))
  const error = useSelector(bets, (s) => s.context.error)
  const total = addRupees(...rows.map((row) => row.profitLoss))
  return (
    <section className="card p-3" aria-labelledby="casino-bets-title">
      <div className="mb-3 flex flex-wrap items-end gap-2">
        <h2 id="casino-bets-title" className="m-0 mr-auto text-base font-700">My casino bets</h2>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Provider
          <select
            className="field py-1.5 text-sm"
            value={query.provider}
            onChange={(e) => bets.send({ type: "bets.query", query: { ...query, provider: e.target.value } })}
          >
            {PROVIDERS.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Date
          <input
            type="date"
            className="field py-1.5 text-sm"
            value={query.date}
            max={indiaDay(new Date())}
            onChange={(e) => e.target.value && bets.send({ type: "bets.query", query: { ...query, date: e.target.value } })}
          />
        </label>
      </div>
      {loading ? (
        <p role="status" className="m-0 py-4 text-center text-sm text-muted">Loading…</p>
      ) : error ? (
        <p role="alert" className="m-0 py-4 text-center text-sm text-bad">{error}</p>
      ) : rows.length === 0 ? (
        <p className="m-0 py-4 text-center text-sm text-muted">No Data Available</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm" data-testid="casino-bets">
            <thead className="text-xs text-muted">
              <tr>
                <th scope="col" className="py-1.5 pr-3 font-600">Time</th>
                <th scope="col" className="py-1.5 pr-3 font-600">Game</th>
                <th scope="col" className="py-1.5 pr-3 text-right font-600">Stake</th>
                <th scope="col" className="py-1.5 pr-3 text-right font-600">Return</th>
                <th scope="col" className="py-1.5 pr-3 text-right font-600">P/L</th>
                <th scope="col" className="py-1.5 font-600">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row._id} className="border-t border-line">
                  <td className="py-1.5 pr-3 tabular-nums">{time.format(new Date(row.createdAt))}</td>
                  <td className="py-1.5 pr-3">
                    {row.title}
                    <span className="ml-1 text-xs text-muted">{row.provider_name}</span>
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{formatAmount(row.stake)}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{formatAmount(addRupees(row.win, row.refunded))}</td>
                  <td className={`py-1.5 pr-3 text-right tabular-nums ${row.profitLoss < 0 ? "text-bad" : row.profitLoss > 0 ? "text-ok" : ""}`}>
                    {formatAmount(row.profitLoss)}
                  </td>
                  <td className="py-1.5">{STATUS[row.status]}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-line font-700">
                <td colSpan={4} className="py-1.5 pr-3">Total</td>
                <td className={`py-1.5 pr-3 text-right tabular-nums ${total < 0 ? "text-bad" : total > 0 ? "text-ok" : ""}`}>{formatAmount(total)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  )
}

/** The signed-in player's casino rounds of one day (casino-bets-by-date), by provider. */
export const CasinoBets = ({ lobby }: { lobby: Lobby }) => {
  const bets = useFlow("casinoBets", { input: { query: { provider: lobby === "sa" ? "sa" : "all", date: indiaDay(new Date()) } } })
  return bets ? <CasinoBetsView bets={bets} /> : null
}
