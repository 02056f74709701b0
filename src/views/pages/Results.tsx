import { useSelector } from "@xstate/react"
import { eventDateLabel } from "../../domain/dates.ts"
import { groupResults, resultText } from "../../domain/results.ts"
import type { FlowRef } from "../../machines/flows.ts"
import { AppActor } from "../app-actor.ts"
import { useFlow } from "../flows.ts"

/**
 * /results: the markets settled in the last 7 days by day and sport, each with its winner, its line's result or
 * Void. The `results` flow loads them page by page and for one sport or all.
 */
const Results = () => {
  const flow = useFlow("results", { input: undefined })
  return (
    <div className="flex flex-col gap-3">
      <h1 className="page-title m-0">Results</h1>
      {flow ? <ResultsView flow={flow} /> : null}
    </div>
  )
}

const ResultsView = ({ flow }: { flow: FlowRef<"results"> }) => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const sport = useSelector(flow, (s) => s.context.sport)
  const rows = useSelector(flow, (s) => s.context.rows)
  const more = useSelector(flow, (s) => s.context.next !== null)
  const loading = useSelector(flow, (s) => s.hasTag("loading"))
  const loadingMore = useSelector(flow, (s) => s.hasTag("loadingMore"))
  const failed = useSelector(flow, (s) => s.hasTag("failed"))
  const chips = [{ slug: null, name: "All" }, ...sports.map((s) => ({ slug: s.slugName, name: s.name }))]
  return (
    <>
      <nav aria-label="Results by sport" className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <button
            key={chip.slug ?? "all"}
            type="button"
            aria-pressed={sport === chip.slug}
            onClick={() => flow.send({ type: "results.sport", sport: chip.slug })}
            className={`chip py-1.5 text-sm ${sport === chip.slug ? "border-brand bg-brand text-brand-fg" : "bg-surface"}`}
          >
            {chip.name}
          </button>
        ))}
      </nav>
      {failed ? (
        <div className="card p-6 text-center">
          <p className="m-0 mb-3 text-muted">Results could not be loaded.</p>
          <button type="button" className="btn-brand" onClick={() => flow.send({ type: "results.reload" })}>Try again</button>
        </div>
      ) : loading && rows.length === 0 ? (
        <p className="card m-0 p-6 text-center text-muted" role="status">Loading results…</p>
      ) : rows.length === 0 ? (
        <p className="card m-0 p-6 text-center text-muted" role="status">No markets settled in the last 7 days.</p>
      ) : (
        <div data-testid="results" aria-busy={loading} className="flex flex-col gap-3">
          {groupResults(rows).map((day) => (
            <section key={day.day} aria-label={day.day} className="card p-3">
              <h2 className="m-0 mb-2 text-sm font-700">{day.day}</h2>
              {day.sports.map((group) => (
                <table key={group.sport} className="mb-3 w-full table-fixed text-sm">
                  <caption className="py-1 text-left text-xs font-700 uppercase tracking-wide text-muted">{group.sport}</caption>
                  {/* The same columns in every table of the page. */}
                  <colgroup><col className="w-[40%]" /><col className="w-[30%]" /><col /><col className="w-14" /></colgroup>
                  <thead className="sr-only">
                    <tr><th scope="col">Event</th><th scope="col">Market</th><th scope="col">Result</th><th scope="col">Settled</th></tr>
                  </thead>
                  <tbody>
                    {group.rows.map((row) => (
                      <tr key={row.marketId} data-testid="result" className="border-t border-line">
                        <td className="py-1.5 pr-2"><span className="block font-600">{row.event}</span><span className="text-xs text-muted">{row.league}</span></td>
                        <td className="py-1.5 pr-2">{row.market}</td>
                        <td className={`py-1.5 pr-2 font-700 ${row.outcome === "void" ? "text-muted" : ""}`}>{resultText(row)}</td>
                        <td className="py-1.5 text-right text-xs text-muted">{eventDateLabel(row.settledAt).split(", ")[1]}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ))}
            </section>
          ))}
          {more ? (
            <button type="button" className="btn-brand self-center" disabled={loadingMore} onClick={() => flow.send({ type: "results.more" })}>
              {loadingMore ? "Loading…" : "Show more"}
            </button>
          ) : null}
        </div>
      )}
    </>
  )
}

export default Results
